ALTER TABLE "reviews" ADD COLUMN "hidden_by_suspension" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Reviews hidden before this column: those of a suspended account that no report of their own took down.
UPDATE "reviews" SET "hidden_by_suspension" = true FROM "users" WHERE "users"."id" = "reviews"."user_id" AND "users"."suspended_at" IS NOT NULL AND "reviews"."status" = 'hidden' AND NOT EXISTS (SELECT 1 FROM "reports" WHERE "reports"."target_type" = 'review' AND "reports"."target_id" = "reviews"."id" AND "reports"."status" IN ('hidden', 'suspended'));
--> statement-breakpoint
-- Classes whose own report was closed by the suspension were judged with the account: lifting it leaves them hidden.
UPDATE "class_works" SET "hidden_by_suspension" = false WHERE "hidden_by_suspension" AND EXISTS (SELECT 1 FROM "reports" WHERE "reports"."target_type" = 'class' AND "reports"."target_id" = "class_works"."id" AND "reports"."status" = 'suspended');
