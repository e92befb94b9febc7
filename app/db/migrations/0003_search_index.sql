ALTER TABLE "class_works" ADD COLUMN "search_title" text GENERATED ALWAYS AS (class_search_fold(title)) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "class_work_schedules_open_class_start_idx" ON "class_work_schedules" USING btree ("class_work_id","started_at","purchased_count") WHERE "class_work_schedules"."is_canceled" = false;--> statement-breakpoint
CREATE INDEX "class_works_search_bigrams_idx" ON "class_works" USING gin (class_search_bigrams("search_text")) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "class_works_style_idx" ON "class_works" USING btree ("class_style_id");--> statement-breakpoint
CREATE INDEX "class_works_published_price_idx" ON "class_works" USING btree ("is_published","price");