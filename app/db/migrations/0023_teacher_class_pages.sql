DROP INDEX "class_works_teacher_idx";--> statement-breakpoint
CREATE INDEX "class_works_teacher_published_idx" ON "class_works" USING btree ("teacher_id","is_published","created_at","id");