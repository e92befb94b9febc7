CREATE TABLE "waitlist_entries" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "waitlist_entries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"schedule_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"learner_id" integer,
	"status" text DEFAULT 'waiting' NOT NULL,
	"offered_at" timestamp with time zone,
	"offer_expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "waitlist_status_check" CHECK ("waitlist_entries"."status" in ('waiting', 'offered', 'booked', 'expired', 'left', 'canceled'))
);
--> statement-breakpoint
ALTER TABLE "class_work_schedules" ADD COLUMN "held_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD CONSTRAINT "waitlist_entries_schedule_id_class_work_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."class_work_schedules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD CONSTRAINT "waitlist_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD CONSTRAINT "waitlist_entries_learner_id_learners_id_fk" FOREIGN KEY ("learner_id") REFERENCES "public"."learners"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "waitlist_schedule_status_idx" ON "waitlist_entries" USING btree ("schedule_id","status","created_at","id");--> statement-breakpoint
CREATE INDEX "waitlist_user_idx" ON "waitlist_entries" USING btree ("user_id","status");--> statement-breakpoint
CREATE INDEX "waitlist_offer_expiry_idx" ON "waitlist_entries" USING btree ("offer_expires_at") WHERE "waitlist_entries"."status" = 'offered';--> statement-breakpoint
CREATE UNIQUE INDEX "waitlist_one_live_per_member" ON "waitlist_entries" USING btree ("schedule_id","user_id") WHERE "waitlist_entries"."status" in ('waiting', 'offered');--> statement-breakpoint
ALTER TABLE "class_work_schedules" ADD CONSTRAINT "class_work_schedules_held_check" CHECK ("class_work_schedules"."held_count" >= 0 and "class_work_schedules"."purchased_count" + "class_work_schedules"."held_count" <= "class_work_schedules"."capacity");