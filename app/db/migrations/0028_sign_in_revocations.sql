CREATE TABLE "sign_in_revocations" (
	"issuer" text NOT NULL,
	"sub" text NOT NULL,
	"revoked_at" timestamp with time zone NOT NULL,
	CONSTRAINT "sign_in_revocations_issuer_sub_pk" PRIMARY KEY("issuer","sub")
);
