CREATE TABLE "categories" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "categories_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "categories_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "class_announcement_reads" (
	"announcement_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"read_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "class_announcement_reads_announcement_id_user_id_pk" PRIMARY KEY("announcement_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "class_announcements" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "class_announcements_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"class_work_id" integer NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "class_styles" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "class_styles_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "class_styles_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "class_work_schedules" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "class_work_schedules_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"class_work_id" integer NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone NOT NULL,
	"capacity" integer NOT NULL,
	"purchased_count" integer DEFAULT 0 NOT NULL,
	"is_canceled" boolean DEFAULT false NOT NULL,
	"meeting_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "class_work_schedules_period_check" CHECK ("class_work_schedules"."ended_at" > "class_work_schedules"."started_at"),
	CONSTRAINT "class_work_schedules_seats_check" CHECK ("class_work_schedules"."purchased_count" >= 0 and "class_work_schedules"."purchased_count" <= "class_work_schedules"."capacity")
);
--> statement-breakpoint
CREATE TABLE "class_work_target_grades" (
	"class_work_id" integer NOT NULL,
	"target_grade_id" integer NOT NULL,
	CONSTRAINT "class_work_target_grades_class_work_id_target_grade_id_pk" PRIMARY KEY("class_work_id","target_grade_id")
);
--> statement-breakpoint
CREATE TABLE "class_works" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "class_works_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"teacher_id" integer NOT NULL,
	"organization_id" integer,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"category_id" integer NOT NULL,
	"class_style_id" integer NOT NULL,
	"price" integer NOT NULL,
	"capacity" integer NOT NULL,
	"duration_minutes" integer NOT NULL,
	"image_url" text,
	"is_published" boolean DEFAULT false NOT NULL,
	"search_text" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "class_works_price_check" CHECK ("class_works"."price" >= 0),
	CONSTRAINT "class_works_capacity_check" CHECK ("class_works"."capacity" > 0),
	CONSTRAINT "class_works_duration_check" CHECK ("class_works"."duration_minutes" > 0)
);
--> statement-breakpoint
CREATE TABLE "favorites" (
	"user_id" integer NOT NULL,
	"class_work_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "favorites_user_id_class_work_id_pk" PRIMARY KEY("user_id","class_work_id")
);
--> statement-breakpoint
CREATE TABLE "follows" (
	"follower_id" integer NOT NULL,
	"teacher_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "follows_follower_id_teacher_id_pk" PRIMARY KEY("follower_id","teacher_id"),
	CONSTRAINT "follows_not_self_check" CHECK ("follows"."follower_id" <> "follows"."teacher_id")
);
--> statement-breakpoint
CREATE TABLE "learners" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "learners_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"nickname" text NOT NULL,
	"school_type_id" integer NOT NULL,
	"target_grade_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "magazine_articles" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "magazine_articles_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"title" text NOT NULL,
	"lead" text NOT NULL,
	"body" text NOT NULL,
	"image_url" text,
	"category" text NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"published_at" timestamp with time zone NOT NULL,
	"search_text" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "messages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"room_id" integer NOT NULL,
	"sender_id" integer NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notice_reads" (
	"notice_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"read_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notice_reads_notice_id_user_id_pk" PRIMARY KEY("notice_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "notices" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "notices_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"title" text NOT NULL,
	"body" text NOT NULL,
	"published_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "org_users" (
	"organization_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"role" text NOT NULL,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "org_users_organization_id_user_id_pk" PRIMARY KEY("organization_id","user_id"),
	CONSTRAINT "org_users_user_unique" UNIQUE("user_id"),
	CONSTRAINT "org_users_role_check" CHECK ("org_users"."role" in ('owner', 'member'))
);
--> statement-breakpoint
CREATE TABLE "organizations" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "organizations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"representative" text NOT NULL,
	"url" text,
	"description" text DEFAULT '' NOT NULL,
	"owner_id" integer NOT NULL,
	"invitation_code" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "organizations_invitation_code_unique" UNIQUE("invitation_code"),
	CONSTRAINT "organizations_owner_unique" UNIQUE("owner_id"),
	CONSTRAINT "organizations_kind_check" CHECK ("organizations"."kind" in ('corporation', 'group'))
);
--> statement-breakpoint
CREATE TABLE "professions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "professions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "professions_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "purchases" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "purchases_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"schedule_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"learner_id" integer,
	"price" integer NOT NULL,
	"commission" integer NOT NULL,
	"status" text DEFAULT 'reserved' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"canceled_at" timestamp with time zone,
	CONSTRAINT "purchases_status_check" CHECK ("purchases"."status" in ('reserved', 'canceled_by_user', 'canceled_by_teacher')),
	CONSTRAINT "purchases_money_check" CHECK ("purchases"."price" >= 0 and "purchases"."commission" >= 0)
);
--> statement-breakpoint
CREATE TABLE "room_members" (
	"room_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"last_read_at" timestamp with time zone,
	CONSTRAINT "room_members_room_id_user_id_pk" PRIMARY KEY("room_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "rooms" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rooms_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"teacher_id" integer NOT NULL,
	"member_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_message_at" timestamp with time zone,
	CONSTRAINT "rooms_pair_unique" UNIQUE("teacher_id","member_id"),
	CONSTRAINT "rooms_two_people_check" CHECK ("rooms"."teacher_id" <> "rooms"."member_id")
);
--> statement-breakpoint
CREATE TABLE "school_types" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "school_types_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "school_types_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "target_grades" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "target_grades_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "target_grades_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "users_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"issuer" text NOT NULL,
	"sub" text NOT NULL,
	"email" text,
	"email_verified" boolean DEFAULT false NOT NULL,
	"nickname" text NOT NULL,
	"name" text NOT NULL,
	"name_kana" text NOT NULL,
	"avatar_url" text,
	"introduction" text DEFAULT '' NOT NULL,
	"role" text NOT NULL,
	"profession_id" integer,
	"school_type_id" integer,
	"target_grade_id" integer,
	"is_teacher" boolean DEFAULT false NOT NULL,
	"agreed_to_terms_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_issuer_sub_unique" UNIQUE("issuer","sub"),
	CONSTRAINT "users_role_check" CHECK ("users"."role" in ('parent', 'learner', 'teacher'))
);
--> statement-breakpoint
CREATE TABLE "video_content_statuses" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "video_content_statuses_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "video_content_statuses_name_unique" UNIQUE("name")
);
--> statement-breakpoint
ALTER TABLE "class_announcement_reads" ADD CONSTRAINT "class_announcement_reads_announcement_id_class_announcements_id_fk" FOREIGN KEY ("announcement_id") REFERENCES "public"."class_announcements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_announcement_reads" ADD CONSTRAINT "class_announcement_reads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_announcements" ADD CONSTRAINT "class_announcements_class_work_id_class_works_id_fk" FOREIGN KEY ("class_work_id") REFERENCES "public"."class_works"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_work_schedules" ADD CONSTRAINT "class_work_schedules_class_work_id_class_works_id_fk" FOREIGN KEY ("class_work_id") REFERENCES "public"."class_works"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_work_target_grades" ADD CONSTRAINT "class_work_target_grades_class_work_id_class_works_id_fk" FOREIGN KEY ("class_work_id") REFERENCES "public"."class_works"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_work_target_grades" ADD CONSTRAINT "class_work_target_grades_target_grade_id_target_grades_id_fk" FOREIGN KEY ("target_grade_id") REFERENCES "public"."target_grades"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_works" ADD CONSTRAINT "class_works_teacher_id_users_id_fk" FOREIGN KEY ("teacher_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_works" ADD CONSTRAINT "class_works_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_works" ADD CONSTRAINT "class_works_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_works" ADD CONSTRAINT "class_works_class_style_id_class_styles_id_fk" FOREIGN KEY ("class_style_id") REFERENCES "public"."class_styles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "favorites" ADD CONSTRAINT "favorites_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "favorites" ADD CONSTRAINT "favorites_class_work_id_class_works_id_fk" FOREIGN KEY ("class_work_id") REFERENCES "public"."class_works"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "follows" ADD CONSTRAINT "follows_follower_id_users_id_fk" FOREIGN KEY ("follower_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "follows" ADD CONSTRAINT "follows_teacher_id_users_id_fk" FOREIGN KEY ("teacher_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "learners" ADD CONSTRAINT "learners_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "learners" ADD CONSTRAINT "learners_school_type_id_school_types_id_fk" FOREIGN KEY ("school_type_id") REFERENCES "public"."school_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "learners" ADD CONSTRAINT "learners_target_grade_id_target_grades_id_fk" FOREIGN KEY ("target_grade_id") REFERENCES "public"."target_grades"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_room_id_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."rooms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_sender_id_users_id_fk" FOREIGN KEY ("sender_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notice_reads" ADD CONSTRAINT "notice_reads_notice_id_notices_id_fk" FOREIGN KEY ("notice_id") REFERENCES "public"."notices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notice_reads" ADD CONSTRAINT "notice_reads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "org_users" ADD CONSTRAINT "org_users_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "org_users" ADD CONSTRAINT "org_users_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_schedule_id_class_work_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."class_work_schedules"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_learner_id_learners_id_fk" FOREIGN KEY ("learner_id") REFERENCES "public"."learners"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "room_members" ADD CONSTRAINT "room_members_room_id_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."rooms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "room_members" ADD CONSTRAINT "room_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rooms" ADD CONSTRAINT "rooms_teacher_id_users_id_fk" FOREIGN KEY ("teacher_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rooms" ADD CONSTRAINT "rooms_member_id_users_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_profession_id_professions_id_fk" FOREIGN KEY ("profession_id") REFERENCES "public"."professions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_school_type_id_school_types_id_fk" FOREIGN KEY ("school_type_id") REFERENCES "public"."school_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_target_grade_id_target_grades_id_fk" FOREIGN KEY ("target_grade_id") REFERENCES "public"."target_grades"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "class_announcements_class_created_idx" ON "class_announcements" USING btree ("class_work_id","created_at");--> statement-breakpoint
CREATE INDEX "class_work_schedules_class_start_idx" ON "class_work_schedules" USING btree ("class_work_id","started_at");--> statement-breakpoint
CREATE INDEX "class_work_schedules_start_idx" ON "class_work_schedules" USING btree ("started_at");--> statement-breakpoint
CREATE INDEX "class_work_target_grades_grade_idx" ON "class_work_target_grades" USING btree ("target_grade_id");--> statement-breakpoint
CREATE INDEX "class_works_teacher_idx" ON "class_works" USING btree ("teacher_id");--> statement-breakpoint
CREATE INDEX "class_works_organization_idx" ON "class_works" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "class_works_category_idx" ON "class_works" USING btree ("category_id");--> statement-breakpoint
CREATE INDEX "class_works_published_created_idx" ON "class_works" USING btree ("is_published","created_at");--> statement-breakpoint
CREATE INDEX "favorites_class_work_idx" ON "favorites" USING btree ("class_work_id");--> statement-breakpoint
CREATE INDEX "follows_teacher_idx" ON "follows" USING btree ("teacher_id");--> statement-breakpoint
CREATE INDEX "learners_user_idx" ON "learners" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "magazine_articles_published_idx" ON "magazine_articles" USING btree ("published_at");--> statement-breakpoint
CREATE INDEX "magazine_articles_category_idx" ON "magazine_articles" USING btree ("category","published_at");--> statement-breakpoint
CREATE INDEX "magazine_articles_tags_idx" ON "magazine_articles" USING gin ("tags");--> statement-breakpoint
CREATE INDEX "messages_room_created_idx" ON "messages" USING btree ("room_id","created_at");--> statement-breakpoint
CREATE INDEX "notices_published_idx" ON "notices" USING btree ("published_at");--> statement-breakpoint
CREATE INDEX "purchases_user_idx" ON "purchases" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "purchases_schedule_idx" ON "purchases" USING btree ("schedule_id");--> statement-breakpoint
CREATE UNIQUE INDEX "purchases_live_unique" ON "purchases" USING btree ("schedule_id","user_id",coalesce("learner_id", 0)) WHERE "purchases"."status" = 'reserved';--> statement-breakpoint
CREATE INDEX "room_members_user_idx" ON "room_members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "rooms_member_idx" ON "rooms" USING btree ("member_id");