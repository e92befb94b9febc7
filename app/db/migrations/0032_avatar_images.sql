CREATE TABLE "avatar_images" (
	"path" text PRIMARY KEY NOT NULL,
	"owner_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "avatar_images" ADD CONSTRAINT "avatar_images_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "avatar_images_owner_idx" ON "avatar_images" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "avatar_images_created_idx" ON "avatar_images" USING btree ("created_at");--> statement-breakpoint
-- Avatars already shown belong to the member showing them (the first by id, should two show one) (0038).
INSERT INTO "avatar_images" ("path", "owner_id")
SELECT DISTINCT ON (substr("avatar_url", 10)) substr("avatar_url", 10), "id"
FROM "users"
WHERE "avatar_url" ~ '^/uploads/avatars/[a-f0-9]{32}\.(png|jpg|webp)$'
ORDER BY substr("avatar_url", 10), "id"
ON CONFLICT DO NOTHING;
--> statement-breakpoint
-- A photo several members show (possible before 0038): whose face it is cannot be told, so nobody shows it any more, and the sweep deletes it a day later.
UPDATE "users" SET "avatar_url" = NULL
WHERE "avatar_url" IN (
  SELECT "avatar_url" FROM "users"
  WHERE "avatar_url" ~ '^/uploads/avatars/[a-f0-9]{32}\.(png|jpg|webp)$'
  GROUP BY "avatar_url" HAVING count(*) > 1
);
