ALTER TABLE "class_announcements" ADD COLUMN "ruby" jsonb;--> statement-breakpoint
ALTER TABLE "class_works" ADD COLUMN "ruby" jsonb;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "furigana" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "ruby" jsonb;--> statement-breakpoint
CREATE INDEX "class_announcements_ruby_todo_idx" ON "class_announcements" USING btree ("id") WHERE "class_announcements"."ruby" is null;--> statement-breakpoint
CREATE INDEX "class_works_ruby_todo_idx" ON "class_works" USING btree ("id") WHERE "class_works"."ruby" is null and "class_works"."is_published";--> statement-breakpoint
CREATE INDEX "users_ruby_todo_idx" ON "users" USING btree ("id") WHERE "users"."ruby" is null and "users"."is_teacher";