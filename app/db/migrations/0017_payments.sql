CREATE TABLE "embedded_payments" (
	"ref" text PRIMARY KEY NOT NULL,
	"amount" integer NOT NULL,
	"status" text NOT NULL,
	"description" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"card_last4" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"succeeded_at" timestamp with time zone,
	CONSTRAINT "embedded_payments_idempotency_key_unique" UNIQUE("idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "embedded_refunds" (
	"idempotency_key" text PRIMARY KEY NOT NULL,
	"ref" text NOT NULL,
	"payment_ref" text NOT NULL,
	"amount" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "embedded_refunds_ref_unique" UNIQUE("ref")
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"purchase_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"provider" text NOT NULL,
	"provider_ref" text,
	"amount" integer NOT NULL,
	"tax_amount" integer NOT NULL,
	"status" text DEFAULT 'requires_payment' NOT NULL,
	"failure_code" text,
	"failure_message" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_attempt_at" timestamp with time zone,
	"succeeded_at" timestamp with time zone,
	"receipt_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payments_purchase_id_unique" UNIQUE("purchase_id"),
	CONSTRAINT "payments_provider_ref_unique" UNIQUE("provider_ref"),
	CONSTRAINT "payments_status_check" CHECK ("payments"."status" in ('requires_payment', 'succeeded', 'canceled')),
	CONSTRAINT "payments_provider_check" CHECK ("payments"."provider" in ('embedded', 'stripe')),
	CONSTRAINT "payments_amount_check" CHECK ("payments"."amount" > 0 and "payments"."tax_amount" >= 0)
);
--> statement-breakpoint
CREATE TABLE "refunds" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "refunds_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"payment_id" integer NOT NULL,
	"purchase_id" integer NOT NULL,
	"amount" integer NOT NULL,
	"reason" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"provider_ref" text,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"succeeded_at" timestamp with time zone,
	CONSTRAINT "refunds_payment_id_unique" UNIQUE("payment_id"),
	CONSTRAINT "refunds_status_check" CHECK ("refunds"."status" in ('pending', 'succeeded')),
	CONSTRAINT "refunds_amount_check" CHECK ("refunds"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "teacher_bank_accounts" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"bank_name" text NOT NULL,
	"branch_name" text NOT NULL,
	"account_type" text NOT NULL,
	"number_last4" text NOT NULL,
	"encrypted" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"provider" text NOT NULL,
	"event_id" text NOT NULL,
	"type" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_events_provider_event_id_pk" PRIMARY KEY("provider","event_id")
);
--> statement-breakpoint
ALTER TABLE "purchases" DROP CONSTRAINT "purchases_status_check";--> statement-breakpoint
DROP INDEX "purchases_live_unique";--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "hold_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "embedded_refunds" ADD CONSTRAINT "embedded_refunds_payment_ref_embedded_payments_ref_fk" FOREIGN KEY ("payment_ref") REFERENCES "public"."embedded_payments"("ref") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_purchase_id_purchases_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."purchases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_purchase_id_purchases_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."purchases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "teacher_bank_accounts" ADD CONSTRAINT "teacher_bank_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payments_user_created_idx" ON "payments" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "payments_succeeded_idx" ON "payments" USING btree ("succeeded_at");--> statement-breakpoint
CREATE INDEX "payments_unsettled_idx" ON "payments" USING btree ("last_attempt_at") WHERE "payments"."status" <> 'succeeded';--> statement-breakpoint
CREATE INDEX "refunds_purchase_idx" ON "refunds" USING btree ("purchase_id");--> statement-breakpoint
CREATE INDEX "refunds_succeeded_idx" ON "refunds" USING btree ("succeeded_at");--> statement-breakpoint
CREATE UNIQUE INDEX "purchases_seat_unique" ON "purchases" USING btree ("schedule_id","user_id",coalesce("learner_id", 0)) WHERE "purchases"."status" in ('reserved', 'pending');--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_hold_check" CHECK (("purchases"."status" = 'pending') = ("purchases"."hold_expires_at" is not null));--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_status_check" CHECK ("purchases"."status" in ('pending', 'reserved', 'canceled_by_user', 'canceled_by_teacher', 'expired'));--> statement-breakpoint
-- Paid reservations made before payments existed were settled at once by the embedded provider: each gets its
-- payment, and its refund when it was cancelled, in the embedded provider's books too (docs/decisions/0025).
INSERT INTO "embedded_payments" ("ref", "amount", "status", "description", "idempotency_key", "created_at", "succeeded_at")
SELECT 'legacy_' || p.id, p.price, 'succeeded', 'legacy', 'legacy-payment-' || p.id, p.created_at, p.created_at
FROM "purchases" p WHERE p.price > 0;--> statement-breakpoint
INSERT INTO "payments" ("purchase_id", "user_id", "provider", "provider_ref", "amount", "tax_amount", "status", "succeeded_at", "created_at")
SELECT p.id, p.user_id, 'embedded', 'legacy_' || p.id, p.price, floor(p.price * 10 / 110.0)::int, 'succeeded', p.created_at, p.created_at
FROM "purchases" p WHERE p.price > 0;--> statement-breakpoint
INSERT INTO "embedded_refunds" ("idempotency_key", "ref", "payment_ref", "amount", "created_at")
SELECT 'legacy-refund-' || p.id, 'legacy_refund_' || p.id, 'legacy_' || p.id, p.price, coalesce(p.canceled_at, p.created_at)
FROM "purchases" p WHERE p.price > 0 AND p.status IN ('canceled_by_user', 'canceled_by_teacher');--> statement-breakpoint
INSERT INTO "refunds" ("payment_id", "purchase_id", "amount", "reason", "status", "provider_ref", "created_at", "succeeded_at")
SELECT pay.id, p.id, p.price, 'legacy', 'succeeded', 'legacy_refund_' || p.id, coalesce(p.canceled_at, p.created_at), coalesce(p.canceled_at, p.created_at)
FROM "purchases" p JOIN "payments" pay ON pay.purchase_id = p.id
WHERE p.price > 0 AND p.status IN ('canceled_by_user', 'canceled_by_teacher');
