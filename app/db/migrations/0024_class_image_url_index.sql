DROP INDEX "class_works_image_url_idx";--> statement-breakpoint
CREATE INDEX "class_works_image_url_idx" ON "class_works" USING btree ("image_url");