ALTER TABLE "donations" ADD COLUMN "invoice_id" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "provider_customer_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "donations_invoice_unique" ON "donations" USING btree ("invoice_id");