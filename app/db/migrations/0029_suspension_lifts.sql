ALTER TABLE "class_works" ADD COLUMN "hidden_by_suspension" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "users_suspended_idx" ON "users" USING btree ("suspended_at","id") WHERE "users"."suspended_at" is not null;--> statement-breakpoint
-- Classes hidden by a suspension before this column: taken down at the suspension's instant.
UPDATE "class_works" SET "hidden_by_suspension" = true FROM "users" WHERE "users"."id" = "class_works"."teacher_id" AND "users"."suspended_at" IS NOT NULL AND "class_works"."hidden_at" = "users"."suspended_at";
