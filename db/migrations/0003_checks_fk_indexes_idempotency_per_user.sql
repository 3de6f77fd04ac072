DROP INDEX "orders_idempotency_unique";--> statement-breakpoint
DROP INDEX "orders_user_idx";--> statement-breakpoint
-- orders.idempotency_key held "{user_id}:{client key}"; it now holds the client's key alone, unique per user_id. Keys
-- written before lose their prefix (after the old unique index is gone: two people may have used the same key). An order
-- of a deleted account (user_id null) loses the old id the same way.
UPDATE "orders" SET "idempotency_key" = CASE WHEN "user_id" IS NULL THEN substr("idempotency_key", strpos("idempotency_key", ':') + 1) ELSE substr("idempotency_key", length("user_id") + 2) END WHERE ("user_id" IS NOT NULL AND left("idempotency_key", length("user_id") + 1) = "user_id" || ':') OR ("user_id" IS NULL AND strpos("idempotency_key", ':') > 0);--> statement-breakpoint
CREATE INDEX "audit_log_actor_idx" ON "audit_log" USING btree ("actor_user_id");--> statement-breakpoint
CREATE INDEX "donations_user_idx" ON "donations" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "donations_donor_email_idx" ON "donations" USING btree (lower("donor_email"));--> statement-breakpoint
CREATE INDEX "emails_user_idx" ON "emails" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "emails_to_address_idx" ON "emails" USING btree (lower("to_address"));--> statement-breakpoint
CREATE INDEX "order_assigned_codes_code_idx" ON "order_assigned_codes" USING btree ("qr_code_id");--> statement-breakpoint
CREATE INDEX "order_items_product_idx" ON "order_items" USING btree ("product_id");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_user_idempotency_unique" ON "orders" USING btree ("user_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "orders_selected_qr_code_idx" ON "orders" USING btree ("selected_qr_code_id");--> statement-breakpoint
CREATE INDEX "orders_customer_email_idx" ON "orders" USING btree (lower("customer_email"));--> statement-breakpoint
CREATE INDEX "qr_requests_user_idx" ON "qr_requests" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "qr_requests_email_idx" ON "qr_requests" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "rate_limits_reset_idx" ON "rate_limits" USING btree ("reset_at");--> statement-breakpoint
CREATE INDEX "visits_user_idx" ON "visits" USING btree ("user_id") WHERE "visits"."user_id" is not null;--> statement-breakpoint
ALTER TABLE "consent_texts" ADD CONSTRAINT "consent_texts_version_check" CHECK ("consent_texts"."version" > 0);--> statement-breakpoint
ALTER TABLE "consents" ADD CONSTRAINT "consents_version_check" CHECK ("consents"."version" > 0);--> statement-breakpoint
ALTER TABLE "discounts" ADD CONSTRAINT "discounts_type_check" CHECK ("discounts"."type" in ('percentage', 'fixed'));--> statement-breakpoint
ALTER TABLE "discounts" ADD CONSTRAINT "discounts_value_check" CHECK ("discounts"."value" >= 0 and ("discounts"."type" <> 'percentage' or "discounts"."value" <= 100));--> statement-breakpoint
ALTER TABLE "donations" ADD CONSTRAINT "donations_amount_cents_check" CHECK ("donations"."amount_cents" >= 0);--> statement-breakpoint
ALTER TABLE "donations" ADD CONSTRAINT "donations_status_check" CHECK ("donations"."status" in ('pending', 'succeeded', 'failed', 'refunded'));--> statement-breakpoint
ALTER TABLE "email_events" ADD CONSTRAINT "email_events_type_check" CHECK ("email_events"."type" in ('open', 'click'));--> statement-breakpoint
ALTER TABLE "emails" ADD CONSTRAINT "emails_status_check" CHECK ("emails"."status" in ('pending', 'sent', 'failed'));--> statement-breakpoint
ALTER TABLE "emails" ADD CONSTRAINT "emails_attempts_check" CHECK ("emails"."attempts" >= 0);--> statement-breakpoint
ALTER TABLE "medical_conditions" ADD CONSTRAINT "medical_conditions_status_check" CHECK ("medical_conditions"."status" in ('Active', 'Chronic', 'Managed', 'Resolved', 'Under Treatment'));--> statement-breakpoint
ALTER TABLE "medical_documents" ADD CONSTRAINT "medical_documents_file_size_check" CHECK ("medical_documents"."file_size" >= 0);--> statement-breakpoint
ALTER TABLE "medical_profiles" ADD CONSTRAINT "medical_profiles_dnr_status_check" CHECK ("medical_profiles"."dnr_status" in ('None', 'DNR', 'POLST', 'Unknown'));--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_quantity_check" CHECK ("order_items"."quantity" > 0);--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_unit_price_cents_check" CHECK ("order_items"."unit_price_cents" >= 0);--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_subtotal_cents_check" CHECK ("orders"."subtotal_cents" >= 0);--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_discount_cents_check" CHECK ("orders"."discount_cents" >= 0);--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_shipping_cents_check" CHECK ("orders"."shipping_cents" >= 0);--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_total_cents_check" CHECK ("orders"."total_cents" >= 0);--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_fulfillment_status_check" CHECK ("orders"."fulfillment_status" in ('pending', 'processing', 'fulfilled', 'shipped', 'delivered', 'cancelled'));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_payment_status_check" CHECK ("orders"."payment_status" in ('pending', 'completed', 'failed', 'refunded'));--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_price_cents_check" CHECK ("products"."price_cents" >= 0);--> statement-breakpoint
ALTER TABLE "qr_requests" ADD CONSTRAINT "qr_requests_quantity_check" CHECK ("qr_requests"."quantity" > 0);--> statement-breakpoint
ALTER TABLE "qr_requests" ADD CONSTRAINT "qr_requests_request_status_check" CHECK ("qr_requests"."request_status" in ('pending', 'fulfilled'));--> statement-breakpoint
ALTER TABLE "qr_scans" ADD CONSTRAINT "qr_scans_view_duration_seconds_check" CHECK ("qr_scans"."view_duration_seconds" >= 0);--> statement-breakpoint
ALTER TABLE "rate_limits" ADD CONSTRAINT "rate_limits_count_check" CHECK ("rate_limits"."count" > 0);--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_status_check" CHECK ("subscriptions"."status" in ('incomplete', 'incomplete_expired', 'trialing', 'active', 'past_due', 'canceled', 'unpaid', 'paused'));