CREATE TABLE "class_work_schedule_lessons" (
	"schedule_id" integer NOT NULL,
	"position" smallint NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone NOT NULL,
	CONSTRAINT "class_work_schedule_lessons_schedule_id_position_pk" PRIMARY KEY("schedule_id","position"),
	CONSTRAINT "class_work_schedule_lessons_period_check" CHECK ("class_work_schedule_lessons"."ended_at" > "class_work_schedule_lessons"."started_at"),
	CONSTRAINT "class_work_schedule_lessons_position_check" CHECK ("class_work_schedule_lessons"."position" between 1 and 20)
);
--> statement-breakpoint
ALTER TABLE "class_works" ADD COLUMN "lesson_count" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "class_work_schedule_lessons" ADD CONSTRAINT "class_work_schedule_lessons_schedule_id_class_work_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."class_work_schedules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "class_work_schedule_lessons_start_idx" ON "class_work_schedule_lessons" USING btree ("started_at");--> statement-breakpoint
ALTER TABLE "class_works" ADD CONSTRAINT "class_works_lesson_count_check" CHECK ("class_works"."lesson_count" between 1 and 20);