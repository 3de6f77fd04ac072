CREATE TABLE "seal_passes" (
	"part" text PRIMARY KEY NOT NULL,
	"key_id" text NOT NULL,
	"fingerprint" text NOT NULL,
	"completed_at" timestamp with time zone NOT NULL
);
