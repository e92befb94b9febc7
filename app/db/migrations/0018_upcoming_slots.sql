DROP INDEX "class_work_schedules_open_slot_idx";--> statement-breakpoint
ALTER TABLE "class_works" ADD COLUMN "upcoming_slots" smallint[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
CREATE INDEX "class_works_upcoming_slots_idx" ON "class_works" USING gin ("upcoming_slots") WITH (fastupdate=false);--> statement-breakpoint
-- next_start_at and upcoming_slots are recomputed together (on every schedule write by the trigger of 0004, and when
-- next_start_at has passed by refreshNextStarts): both describe the class's live schedules that have not started.
CREATE OR REPLACE FUNCTION class_works_refresh_next_start(class_id integer, at timestamptz) RETURNS void
LANGUAGE sql
AS $fn$
  UPDATE class_works SET (next_start_at, upcoming_slots) = (
    SELECT min(s.started_at), coalesce(array_agg(DISTINCT s.slot ORDER BY s.slot), '{}'::smallint[])
    FROM class_work_schedules s
    WHERE s.class_work_id = class_id AND NOT s.is_canceled AND s.started_at >= at
  ) WHERE id = class_id
$fn$;
--> statement-breakpoint
UPDATE class_works c SET upcoming_slots = coalesce((
  SELECT array_agg(DISTINCT s.slot ORDER BY s.slot) FROM class_work_schedules s
  WHERE s.class_work_id = c.id AND NOT s.is_canceled AND s.started_at >= now()
), '{}'::smallint[]);
