ALTER TABLE "messages" ADD COLUMN "status" text DEFAULT 'visible' NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "moderated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "moderated_by" integer;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_moderated_by_users_id_fk" FOREIGN KEY ("moderated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "messages_held_idx" ON "messages" USING btree ("created_at") WHERE "messages"."status" = 'held';--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_status_check" CHECK ("messages"."status" in ('visible', 'held', 'deleted'));