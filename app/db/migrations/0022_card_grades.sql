ALTER TABLE "class_works" ADD COLUMN "card_grades" json DEFAULT '[]'::json NOT NULL;--> statement-breakpoint
-- A card's target grades, [{"id", "name"}] in master order, kept on the class row (docs/decisions/0026): lists read
-- them with the row instead of aggregating JSON per card on every read. One function computes them; the trigger on
-- class_work_target_grades that keeps target_grade_ids keeps them too, and a renamed or reordered grade updates
-- the classes that have it.
CREATE OR REPLACE FUNCTION class_card_grades(class_id integer) RETURNS json
LANGUAGE sql STABLE
AS $fn$
  SELECT coalesce(json_agg(json_build_object('id', t.id, 'name', t.name) ORDER BY t.sort_order, t.id), '[]'::json)
  FROM class_work_target_grades g JOIN target_grades t ON t.id = g.target_grade_id
  WHERE g.class_work_id = class_id
$fn$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION class_work_target_grades_sort_keys() RETURNS trigger
LANGUAGE plpgsql
AS $fn$
DECLARE
  class_id integer := CASE WHEN TG_OP = 'DELETE' THEN OLD.class_work_id ELSE NEW.class_work_id END;
BEGIN
  UPDATE class_works SET target_grade_ids = coalesce((
    SELECT array_agg(g.target_grade_id ORDER BY g.target_grade_id) FROM class_work_target_grades g
    WHERE g.class_work_id = class_id
  ), '{}'), card_grades = class_card_grades(class_id) WHERE id = class_id;
  RETURN NULL;
END
$fn$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION target_grades_card_grades() RETURNS trigger
LANGUAGE plpgsql
AS $fn$
BEGIN
  UPDATE class_works SET card_grades = class_card_grades(id) WHERE target_grade_ids @> ARRAY[NEW.id];
  RETURN NULL;
END
$fn$;
--> statement-breakpoint
CREATE TRIGGER target_grades_card_grades
AFTER UPDATE OF name, sort_order ON target_grades
FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.sort_order IS DISTINCT FROM NEW.sort_order)
EXECUTE FUNCTION target_grades_card_grades();
--> statement-breakpoint
UPDATE class_works SET card_grades = class_card_grades(id) WHERE target_grade_ids <> '{}';
--> statement-breakpoint
-- Returns its argument. VOLATILE, so the planner never evaluates it ahead: a prepared statement that lists its rows
-- from `unnest(plan_opaque($1))` is estimated the same with any array, and PostgreSQL's plan cache settles on one
-- generic plan instead of planning again on every call (docs/decisions/0026: a page of cards by ids spent more time
-- being planned for its ids than running). Only in FROM: a volatile call in a WHERE clause would be run per row.
CREATE OR REPLACE FUNCTION plan_opaque(ids integer[]) RETURNS integer[]
LANGUAGE plpgsql VOLATILE PARALLEL SAFE
AS $fn$
BEGIN
  RETURN ids;
END
$fn$;
