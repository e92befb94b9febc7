CREATE TABLE "class_requests" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "class_requests_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"class_work_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"weekdays" text[] NOT NULL,
	"times" text[] NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"notified_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "class_requests" ADD CONSTRAINT "class_requests_class_work_id_class_works_id_fk" FOREIGN KEY ("class_work_id") REFERENCES "public"."class_works"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_requests" ADD CONSTRAINT "class_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "class_requests_class_open_idx" ON "class_requests" USING btree ("class_work_id","created_at") WHERE "class_requests"."notified_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "class_requests_one_open" ON "class_requests" USING btree ("class_work_id","user_id") WHERE "class_requests"."notified_at" is null;