CREATE TABLE "class_images" (
	"path" text PRIMARY KEY NOT NULL,
	"owner_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "class_images" ADD CONSTRAINT "class_images_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "class_images_owner_idx" ON "class_images" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "class_images_created_idx" ON "class_images" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "class_works_image_url_idx" ON "class_works" USING btree ("image_url") WHERE "class_works"."image_url" like '/uploads/%';--> statement-breakpoint
-- Images already on classes belong to the teacher of the first class that shows them (0035).
INSERT INTO "class_images" ("path", "owner_id")
SELECT DISTINCT ON (substr("image_url", 10)) substr("image_url", 10), "teacher_id"
FROM "class_works"
WHERE "image_url" ~ '^/uploads/classes/[a-f0-9]{32}\.(png|jpg|webp)$'
ORDER BY substr("image_url", 10), "id"
ON CONFLICT DO NOTHING;
