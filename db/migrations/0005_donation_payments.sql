ALTER TABLE "donations" ADD COLUMN "fee_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "refunded_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "checkout_session_id" text;--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "paid_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "donations_checkout_session_unique" ON "donations" USING btree ("checkout_session_id");--> statement-breakpoint
ALTER TABLE "donations" ADD CONSTRAINT "donations_fee_cents_check" CHECK ("donations"."fee_cents" >= 0);--> statement-breakpoint
ALTER TABLE "donations" ADD CONSTRAINT "donations_refunded_cents_check" CHECK ("donations"."refunded_cents" >= 0);