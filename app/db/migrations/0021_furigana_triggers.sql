-- Furigana (docs/decisions/0028). The ruby column holds the readings of a row's texts. When one of those texts
-- changes, the row's ruby goes back to null (it no longer matches). A transaction that leaves a row to be read
-- queues one ruby.fill job with its own writes (outbox; the dedupe key is the transaction's id).
CREATE OR REPLACE FUNCTION ruby_clear() RETURNS trigger
LANGUAGE plpgsql
AS $fn$
BEGIN
  NEW.ruby := NULL;
  RETURN NEW;
END
$fn$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION ruby_fill_enqueue() RETURNS trigger
LANGUAGE plpgsql
AS $fn$
BEGIN
  INSERT INTO jobs (kind, payload, dedupe_key) VALUES ('ruby.fill', '{}'::jsonb, 'ruby.fill:tx:' || txid_current())
  ON CONFLICT (dedupe_key) DO NOTHING;
  PERFORM pg_notify('jobs_ready', '');
  RETURN NULL;
END
$fn$;
--> statement-breakpoint
CREATE TRIGGER class_works_ruby_clear BEFORE UPDATE OF title, description ON class_works
  FOR EACH ROW WHEN (OLD.title IS DISTINCT FROM NEW.title OR OLD.description IS DISTINCT FROM NEW.description)
  EXECUTE FUNCTION ruby_clear();
--> statement-breakpoint
CREATE TRIGGER class_works_ruby_fill AFTER INSERT OR UPDATE ON class_works
  FOR EACH ROW WHEN (NEW.ruby IS NULL AND NEW.is_published) EXECUTE FUNCTION ruby_fill_enqueue();
--> statement-breakpoint
CREATE TRIGGER users_ruby_clear BEFORE UPDATE OF introduction ON users
  FOR EACH ROW WHEN (OLD.introduction IS DISTINCT FROM NEW.introduction)
  EXECUTE FUNCTION ruby_clear();
--> statement-breakpoint
CREATE TRIGGER users_ruby_fill AFTER INSERT OR UPDATE ON users
  FOR EACH ROW WHEN (NEW.ruby IS NULL AND NEW.is_teacher) EXECUTE FUNCTION ruby_fill_enqueue();
--> statement-breakpoint
CREATE TRIGGER class_announcements_ruby_clear BEFORE UPDATE OF title, body ON class_announcements
  FOR EACH ROW WHEN (OLD.title IS DISTINCT FROM NEW.title OR OLD.body IS DISTINCT FROM NEW.body)
  EXECUTE FUNCTION ruby_clear();
--> statement-breakpoint
CREATE TRIGGER class_announcements_ruby_fill AFTER INSERT OR UPDATE ON class_announcements
  FOR EACH ROW WHEN (NEW.ruby IS NULL) EXECUTE FUNCTION ruby_fill_enqueue();
--> statement-breakpoint
-- What exists already is read by the first job.
INSERT INTO jobs (kind, payload) VALUES ('ruby.fill', '{}'::jsonb);
