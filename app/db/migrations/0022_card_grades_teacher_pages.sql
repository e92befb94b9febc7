CREATE TABLE "class_card_grades" (
	"class_work_id" integer PRIMARY KEY NOT NULL,
	"grades" json NOT NULL
);
--> statement-breakpoint
DROP INDEX "class_works_teacher_idx";--> statement-breakpoint
ALTER TABLE "class_card_grades" ADD CONSTRAINT "class_card_grades_class_work_id_class_works_id_fk" FOREIGN KEY ("class_work_id") REFERENCES "public"."class_works"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "class_works_teacher_published_idx" ON "class_works" USING btree ("teacher_id","is_published","created_at","id");--> statement-breakpoint
-- A card's target grades, [{"id", "name"}] in master order (class_card_grades, docs/decisions/0026): lists read them
-- with a primary-key join instead of aggregating JSON per card on every read. One function computes them; the
-- trigger on class_work_target_grades that keeps class_works.target_grade_ids keeps them too, and a renamed or
-- reordered grade updates the classes that have it. A class without grades has no row.
CREATE OR REPLACE FUNCTION card_grades_of(class_id integer) RETURNS json
LANGUAGE sql STABLE
AS $fn$
  SELECT json_agg(json_build_object('id', t.id, 'name', t.name) ORDER BY t.sort_order, t.id)
  FROM class_work_target_grades g JOIN target_grades t ON t.id = g.target_grade_id
  WHERE g.class_work_id = class_id
$fn$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION class_card_grades_refresh(class_id integer) RETURNS void
LANGUAGE plpgsql
AS $fn$
DECLARE
  grades json := card_grades_of(class_id);
BEGIN
  IF grades IS NULL THEN
    DELETE FROM class_card_grades WHERE class_work_id = class_id;
  ELSE
    INSERT INTO class_card_grades (class_work_id, grades) VALUES (class_id, grades)
    ON CONFLICT (class_work_id) DO UPDATE SET grades = EXCLUDED.grades;
  END IF;
END
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
  ), '{}') WHERE id = class_id;
  -- The class itself may be going (a cascade from class_works): then its grades row goes with it.
  IF EXISTS (SELECT 1 FROM class_works WHERE id = class_id) THEN
    PERFORM class_card_grades_refresh(class_id);
  END IF;
  RETURN NULL;
END
$fn$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION target_grades_card_grades() RETURNS trigger
LANGUAGE plpgsql
AS $fn$
BEGIN
  UPDATE class_card_grades g SET grades = card_grades_of(g.class_work_id)
  FROM class_works c WHERE c.id = g.class_work_id AND c.target_grade_ids @> ARRAY[NEW.id];
  RETURN NULL;
END
$fn$;
--> statement-breakpoint
CREATE TRIGGER target_grades_card_grades
AFTER UPDATE OF name, sort_order ON target_grades
FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.sort_order IS DISTINCT FROM NEW.sort_order)
EXECUTE FUNCTION target_grades_card_grades();
--> statement-breakpoint
INSERT INTO class_card_grades (class_work_id, grades)
SELECT id, card_grades_of(id) FROM class_works WHERE target_grade_ids <> '{}';
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
