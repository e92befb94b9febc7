DROP INDEX "class_works_category_idx";--> statement-breakpoint
DROP INDEX "class_works_published_created_idx";--> statement-breakpoint
DROP INDEX "class_works_published_price_idx";--> statement-breakpoint
ALTER TABLE "class_works" ADD COLUMN "seats_sold" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "class_works" ADD COLUMN "next_start_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "class_works" ADD COLUMN "target_grade_ids" integer[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
CREATE INDEX "class_works_search_title_bigrams_idx" ON "class_works" USING gin (class_search_bigrams("search_title")) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "class_works_published_price_id_desc_idx" ON "class_works" USING btree ("is_published","price","id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "class_works_published_seats_idx" ON "class_works" USING btree ("is_published","seats_sold","id");--> statement-breakpoint
CREATE INDEX "class_works_next_start_idx" ON "class_works" USING btree ("next_start_at","id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "class_works_published_created_idx" ON "class_works" USING btree ("is_published","created_at","id");--> statement-breakpoint
CREATE INDEX "class_works_published_price_idx" ON "class_works" USING btree ("is_published","price","id");--> statement-breakpoint
-- The category filter (with price, style, grade) answered from the index alone; id for the schedule look-ups.
CREATE INDEX "class_works_category_filter_idx" ON "class_works" USING btree ("category_id","price")
  INCLUDE ("is_published","class_style_id","target_grade_ids","id");--> statement-breakpoint
-- Search sort and filter keys (app/db/schema.ts: class_works.seats_sold, next_start_at, target_grade_ids), kept by
-- triggers so that every writer (purchases, cancellations, teacher edits, seeds) keeps them right. seats_sold moves
-- by deltas, not by re-summing: two purchases of different schedules of one class in concurrent transactions then
-- both count (the second UPDATE re-reads the row the first committed). next_start_at is recomputed; schedule writes
-- that change it already lock their class row. It goes stale when that start passes: the search by start refreshes
-- it (refreshNextStarts in app/api/services/class-works.ts).
CREATE OR REPLACE FUNCTION class_work_schedules_sort_keys() RETURNS trigger
LANGUAGE plpgsql
AS $fn$
DECLARE
  old_seats integer := 0;
  new_seats integer := 0;
BEGIN
  IF TG_OP <> 'INSERT' AND NOT OLD.is_canceled THEN old_seats := OLD.purchased_count; END IF;
  IF TG_OP <> 'DELETE' AND NOT NEW.is_canceled THEN new_seats := NEW.purchased_count; END IF;
  IF TG_OP = 'UPDATE' AND OLD.class_work_id = NEW.class_work_id THEN
    IF new_seats <> old_seats THEN
      UPDATE class_works SET seats_sold = seats_sold + new_seats - old_seats WHERE id = NEW.class_work_id;
    END IF;
    IF NEW.started_at IS NOT DISTINCT FROM OLD.started_at AND NEW.is_canceled = OLD.is_canceled THEN
      RETURN NULL;
    END IF;
  ELSE
    IF TG_OP <> 'INSERT' AND old_seats <> 0 THEN
      UPDATE class_works SET seats_sold = seats_sold - old_seats WHERE id = OLD.class_work_id;
    END IF;
    IF TG_OP <> 'DELETE' AND new_seats <> 0 THEN
      UPDATE class_works SET seats_sold = seats_sold + new_seats WHERE id = NEW.class_work_id;
    END IF;
  END IF;
  IF TG_OP <> 'INSERT' THEN PERFORM class_works_refresh_next_start(OLD.class_work_id, now()); END IF;
  IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW.class_work_id <> OLD.class_work_id) THEN
    PERFORM class_works_refresh_next_start(NEW.class_work_id, now());
  END IF;
  RETURN NULL;
END
$fn$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION class_works_refresh_next_start(class_id integer, at timestamptz) RETURNS void
LANGUAGE sql
AS $fn$
  UPDATE class_works SET next_start_at = (
    SELECT min(s.started_at) FROM class_work_schedules s
    WHERE s.class_work_id = class_id AND NOT s.is_canceled AND s.started_at >= at
  ) WHERE id = class_id
$fn$;
--> statement-breakpoint
CREATE TRIGGER class_work_schedules_sort_keys
AFTER INSERT OR DELETE OR UPDATE OF class_work_id, started_at, is_canceled, purchased_count ON class_work_schedules
FOR EACH ROW EXECUTE FUNCTION class_work_schedules_sort_keys();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION class_work_target_grades_sort_keys() RETURNS trigger
LANGUAGE plpgsql
AS $fn$
BEGIN
  UPDATE class_works SET target_grade_ids = coalesce((
    SELECT array_agg(g.target_grade_id ORDER BY g.target_grade_id) FROM class_work_target_grades g
    WHERE g.class_work_id = class_works.id
  ), '{}') WHERE id = CASE WHEN TG_OP = 'DELETE' THEN OLD.class_work_id ELSE NEW.class_work_id END;
  RETURN NULL;
END
$fn$;
--> statement-breakpoint
CREATE TRIGGER class_work_target_grades_sort_keys
AFTER INSERT OR DELETE ON class_work_target_grades
FOR EACH ROW EXECUTE FUNCTION class_work_target_grades_sort_keys();
--> statement-breakpoint
UPDATE class_works c SET seats_sold = coalesce(k.seats, 0), next_start_at = k.next,
  target_grade_ids = coalesce((SELECT array_agg(g.target_grade_id ORDER BY g.target_grade_id)
    FROM class_work_target_grades g WHERE g.class_work_id = c.id), '{}')
FROM class_works c2 LEFT JOIN (
  SELECT class_work_id,
    sum(purchased_count) FILTER (WHERE NOT is_canceled) AS seats,
    min(started_at) FILTER (WHERE NOT is_canceled AND started_at >= now()) AS next
  FROM class_work_schedules GROUP BY class_work_id
) k ON k.class_work_id = c2.id
WHERE c2.id = c.id;
