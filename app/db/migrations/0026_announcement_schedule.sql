ALTER TABLE "class_announcements" ADD COLUMN "schedule_id" integer;--> statement-breakpoint
ALTER TABLE "class_announcements" ADD CONSTRAINT "class_announcements_schedule_id_class_work_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."class_work_schedules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The 【休講】 notices written before: the cancelled date whose reservations were cancelled at that very moment, when
-- exactly one date was (an operator's take-down cancels every date of a class at once: those stay for the class).
UPDATE "class_announcements" a SET "schedule_id" = (
  SELECT min(p."schedule_id") FROM "purchases" p
  JOIN "class_work_schedules" s ON s."id" = p."schedule_id"
  WHERE s."class_work_id" = a."class_work_id" AND s."is_canceled" AND p."status" = 'canceled_by_teacher'
    AND p."canceled_at" = a."created_at"
  HAVING count(DISTINCT p."schedule_id") = 1
) WHERE a."title" LIKE '【休講】%' AND a."schedule_id" IS NULL;
