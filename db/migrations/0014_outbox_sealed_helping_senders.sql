CREATE TABLE "helping_blocks" (
	"id" serial PRIMARY KEY NOT NULL,
	"qr_code_id" integer NOT NULL,
	"reporter_hash" text NOT NULL,
	"responder_key_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "emails_to_address_idx";--> statement-breakpoint
ALTER TABLE "helping_reports" ADD COLUMN "reporter_hash" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "helping_reports" ADD COLUMN "mailed_at" timestamp with time zone;--> statement-breakpoint
-- Every report made before updates were held went out at once.
UPDATE "helping_reports" SET "mailed_at" = "created_at";--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "to_address_hash" text;--> statement-breakpoint
ALTER TABLE "helping_blocks" ADD CONSTRAINT "helping_blocks_qr_code_id_qr_codes_id_fk" FOREIGN KEY ("qr_code_id") REFERENCES "public"."qr_codes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "helping_blocks_code_reporter_unique" ON "helping_blocks" USING btree ("qr_code_id","reporter_hash");--> statement-breakpoint
CREATE INDEX "helping_reports_reporter_idx" ON "helping_reports" USING btree ("reporter_hash","created_at");--> statement-breakpoint
CREATE INDEX "helping_reports_waiting_idx" ON "helping_reports" USING btree ("created_at") WHERE "helping_reports"."mailed_at" is null;--> statement-breakpoint
CREATE INDEX "emails_to_address_hash_idx" ON "emails" USING btree ("to_address_hash");