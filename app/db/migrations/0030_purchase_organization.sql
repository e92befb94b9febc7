ALTER TABLE "purchases" ADD COLUMN "organization_id" integer;--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "purchases_organization_idx" ON "purchases" USING btree ("organization_id","created_at");--> statement-breakpoint
-- Purchases made before this column: the class's organisation now is the best record there is of it then.
UPDATE "purchases" SET "organization_id" = "class_works"."organization_id" FROM "class_work_schedules", "class_works" WHERE "class_work_schedules"."id" = "purchases"."schedule_id" AND "class_works"."id" = "class_work_schedules"."class_work_id" AND "class_works"."organization_id" IS NOT NULL;
