ALTER TABLE "class_work_schedules" ADD COLUMN "revision" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "class_work_schedules" ADD COLUMN "moved_at" timestamp with time zone;