-- The receipt's issuer as it stood when the payment went through (docs/decisions/0057): set by the payment service
-- with the status. Payments that succeeded before this migration are stamped as the app opens its database
-- (stampReceiptIssuers in app/db/receipt-issuers.ts), with the issuer configured then: the configuration is not SQL.
ALTER TABLE "payments" ADD COLUMN "receipt_issuer_name" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "receipt_registration_number" text;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_receipt_registration_check" CHECK ("payments"."receipt_registration_number" is null or ("payments"."receipt_registration_number" ~ '^T[0-9]{13}$' and "payments"."receipt_issuer_name" is not null));