ALTER TABLE "class_works" ADD COLUMN "favorite_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "follower_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Favorite and follower counts (docs/decisions/0053): favorites and follows of members who are not suspended, kept
-- by these triggers on every path that writes them, so a card or a teacher page reads a column instead of counting.
-- Serialised with a suspension by the member's users row: a suspension locks it FOR UPDATE first (0015), and a
-- favorite or follow holds KEY SHARE on it (its foreign key check, and the look-up below for a removal). Whichever
-- commits first, the other's statements see it: a row is counted once or not at all. Counts move by ±1, which a
-- concurrent update of the same row re-applies to the newest version (a recount would not).
CREATE FUNCTION member_counts_favorite() RETURNS trigger
LANGUAGE plpgsql
AS $fn$
DECLARE
  r favorites;
  step integer;
BEGIN
  IF TG_OP = 'INSERT' THEN r := NEW; step := 1; ELSE r := OLD; step := -1; END IF;
  -- Removed with its class (the cascade of the class's deletion): nothing left to count, and no member's row to
  -- lock, which would take members after their class, against the lock order (0015) a suspension follows.
  IF TG_OP = 'DELETE' AND NOT EXISTS (SELECT 1 FROM class_works WHERE id = r.class_work_id) THEN
    RETURN NULL;
  END IF;
  -- A member deleted in this statement is gone already: their counts were taken back before (member_counts_member).
  PERFORM 1 FROM users WHERE id = r.user_id AND suspended_at IS NULL FOR KEY SHARE;
  IF FOUND THEN
    UPDATE class_works SET favorite_count = favorite_count + step WHERE id = r.class_work_id;
  END IF;
  RETURN NULL;
END
$fn$;
--> statement-breakpoint
CREATE FUNCTION member_counts_follow() RETURNS trigger
LANGUAGE plpgsql
AS $fn$
DECLARE
  r follows;
  step integer;
BEGIN
  IF TG_OP = 'INSERT' THEN r := NEW; step := 1; ELSE r := OLD; step := -1; END IF;
  -- Removed with the teacher's account: as for a favorite removed with its class.
  IF TG_OP = 'DELETE' AND NOT EXISTS (SELECT 1 FROM users WHERE id = r.teacher_id) THEN
    RETURN NULL;
  END IF;
  PERFORM 1 FROM users WHERE id = r.follower_id AND suspended_at IS NULL FOR KEY SHARE;
  IF FOUND THEN
    UPDATE users SET follower_count = follower_count + step WHERE id = r.teacher_id;
  END IF;
  RETURN NULL;
END
$fn$;
--> statement-breakpoint
-- A member suspended (-1), their suspension lifted (+1) or an active member deleted (-1, before the cascade takes
-- their rows): each class they favourite and each teacher they follow. Favorites and follows have one row per pair.
CREATE FUNCTION member_counts_member() RETURNS trigger
LANGUAGE plpgsql
AS $fn$
DECLARE
  member_id integer;
  step integer;
BEGIN
  IF TG_OP = 'DELETE' THEN member_id := OLD.id; step := -1;
  ELSE member_id := NEW.id; step := CASE WHEN NEW.suspended_at IS NULL THEN 1 ELSE -1 END;
  END IF;
  -- Several class rows are locked in ascending id (0015), and so are several teachers' rows, before they change.
  PERFORM 1 FROM class_works WHERE id IN (SELECT class_work_id FROM favorites WHERE user_id = member_id)
    ORDER BY id FOR NO KEY UPDATE;
  UPDATE class_works cw SET favorite_count = cw.favorite_count + step
    FROM favorites f WHERE f.user_id = member_id AND cw.id = f.class_work_id;
  PERFORM 1 FROM users WHERE id IN (SELECT teacher_id FROM follows WHERE follower_id = member_id)
    ORDER BY id FOR NO KEY UPDATE;
  UPDATE users u SET follower_count = u.follower_count + step
    FROM follows f WHERE f.follower_id = member_id AND u.id = f.teacher_id;
  IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
  RETURN NULL;
END
$fn$;
--> statement-breakpoint
CREATE TRIGGER favorites_member_counts AFTER INSERT OR DELETE ON favorites
  FOR EACH ROW EXECUTE FUNCTION member_counts_favorite();
--> statement-breakpoint
CREATE TRIGGER follows_member_counts AFTER INSERT OR DELETE ON follows
  FOR EACH ROW EXECUTE FUNCTION member_counts_follow();
--> statement-breakpoint
CREATE TRIGGER users_suspension_member_counts AFTER UPDATE OF suspended_at ON users
  FOR EACH ROW WHEN ((OLD.suspended_at IS NULL) <> (NEW.suspended_at IS NULL))
  EXECUTE FUNCTION member_counts_member();
--> statement-breakpoint
CREATE TRIGGER users_delete_member_counts BEFORE DELETE ON users
  FOR EACH ROW WHEN (OLD.suspended_at IS NULL) EXECUTE FUNCTION member_counts_member();
--> statement-breakpoint
-- Favorite counts of the rows already there (replayed by member-counts.test.ts).
UPDATE class_works cw SET favorite_count = c.n
  FROM (SELECT f.class_work_id, count(*)::int AS n FROM favorites f JOIN users u ON u.id = f.user_id
        WHERE u.suspended_at IS NULL GROUP BY f.class_work_id) c
  WHERE cw.id = c.class_work_id;
--> statement-breakpoint
-- Follower counts of the rows already there (replayed by member-counts.test.ts).
UPDATE users t SET follower_count = c.n
  FROM (SELECT f.teacher_id, count(*)::int AS n FROM follows f JOIN users u ON u.id = f.follower_id
        WHERE u.suspended_at IS NULL GROUP BY f.teacher_id) c
  WHERE t.id = c.teacher_id;
