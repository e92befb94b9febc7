-- rating_min compares rating_halves; the cards show the average rounded half up to one decimal (app/lib/rating.ts).
-- Halves of the plain average rounded down dropped a class showing ★4.0 (79 over 20 reviews, 3.95) from ★4以上, so
-- the column now rounds like the card first (tenths, half up), then takes whole halves (docs/decisions/0021).
-- A generated column's expression cannot be altered before PostgreSQL 17: dropped (with its index) and added again.
ALTER TABLE "class_works" DROP COLUMN "rating_halves";--> statement-breakpoint
ALTER TABLE "class_works" ADD COLUMN "rating_halves" smallint GENERATED ALWAYS AS (case when rating_count > 0 then ((rating_sum * 20 + rating_count) / (rating_count * 2) / 5)::smallint end) STORED;--> statement-breakpoint
CREATE INDEX "class_works_rating_halves_idx" ON "class_works" USING btree ("rating_halves") WHERE "class_works"."rating_halves" is not null;
