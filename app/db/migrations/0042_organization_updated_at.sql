ALTER TABLE "organizations" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
-- Organisations saved before this column existed were last changed, as far as anyone knows, when they were made.
UPDATE "organizations" SET "updated_at" = "created_at";
