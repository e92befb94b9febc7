ALTER TABLE "payments" ADD COLUMN "receipt_title" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "receipt_started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "receipt_lesson_count" integer;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "receipt_learner" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "receipt_member" text;--> statement-breakpoint
-- A receipt's item as it stood when the payment went through (docs/decisions/0057). Filled here for every payment
-- that succeeds, on whatever path it does (the payment service, the seed, a repair by hand), in the same statement,
-- so a receipt can never be left without one. Payments that succeeded before this migration get what stands now.
CREATE FUNCTION payments_receipt_item() RETURNS trigger
LANGUAGE plpgsql
AS $fn$
BEGIN
  IF NEW.status = 'succeeded' AND NEW.receipt_title IS NULL THEN
    SELECT cw.title, s.started_at, cw.lesson_count, l.nickname, u.nickname
      INTO NEW.receipt_title, NEW.receipt_started_at, NEW.receipt_lesson_count, NEW.receipt_learner, NEW.receipt_member
      FROM purchases p
      JOIN class_work_schedules s ON s.id = p.schedule_id
      JOIN class_works cw ON cw.id = s.class_work_id
      JOIN users u ON u.id = NEW.user_id
      LEFT JOIN learners l ON l.id = p.learner_id
      WHERE p.id = NEW.purchase_id;
  END IF;
  RETURN NEW;
END
$fn$;
--> statement-breakpoint
CREATE TRIGGER payments_receipt_item BEFORE INSERT OR UPDATE OF status ON payments
  FOR EACH ROW EXECUTE FUNCTION payments_receipt_item();
--> statement-breakpoint
UPDATE payments AS pay SET receipt_title = cw.title, receipt_started_at = s.started_at,
    receipt_lesson_count = cw.lesson_count, receipt_learner = l.nickname, receipt_member = u.nickname
  FROM purchases p
  JOIN class_work_schedules s ON s.id = p.schedule_id
  JOIN class_works cw ON cw.id = s.class_work_id
  LEFT JOIN learners l ON l.id = p.learner_id,
  users u
  WHERE p.id = pay.purchase_id AND u.id = pay.user_id AND pay.status = 'succeeded';--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_receipt_item_check" CHECK ("payments"."status" <> 'succeeded' or ("payments"."receipt_title" is not null and "payments"."receipt_started_at" is not null and "payments"."receipt_lesson_count" is not null and "payments"."receipt_member" is not null));
