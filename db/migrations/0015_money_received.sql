ALTER TABLE "donations" DROP CONSTRAINT "donations_refunded_cents_check";--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_payment_status_check";--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "payment_status" SET DEFAULT 'free';--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "charged_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "charged_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "refunded_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- A confirmed gift was charged the gift and the fee the donor covered (the webhook split Stripe's charge that way);
-- pending and failed ones were charged nothing. Refunds never exceeded the charge; least() keeps that true regardless.
UPDATE "donations" SET "charged_cents" = "amount_cents" + "fee_cents" WHERE "status" in ('succeeded', 'refunded');--> statement-breakpoint
UPDATE "donations" SET "refunded_cents" = least("refunded_cents", "charged_cents") WHERE "refunded_cents" > "charged_cents";--> statement-breakpoint
-- Shop orders were free but recorded as 'completed': nothing was charged for them. An order whose total is 0 is free too.
UPDATE "orders" SET "payment_status" = 'free', "is_free" = true WHERE "is_free" or "total_cents" = 0;--> statement-breakpoint
-- A paid order (none are taken yet) was charged its total once completed; a refunded one got all of it back.
UPDATE "orders" SET "charged_cents" = "total_cents" WHERE "payment_status" in ('completed', 'refunded');--> statement-breakpoint
UPDATE "orders" SET "refunded_cents" = "total_cents" WHERE "payment_status" = 'refunded';--> statement-breakpoint
ALTER TABLE "donations" ADD CONSTRAINT "donations_charged_cents_check" CHECK ("donations"."charged_cents" >= 0);--> statement-breakpoint
ALTER TABLE "donations" ADD CONSTRAINT "donations_charged_check" CHECK ("donations"."charged_cents" = 0 or ("donations"."status" in ('succeeded', 'refunded') and "donations"."charged_cents" = "donations"."amount_cents" + "donations"."fee_cents"));--> statement-breakpoint
ALTER TABLE "donations" ADD CONSTRAINT "donations_refunded_cents_check" CHECK ("donations"."refunded_cents" >= 0 and "donations"."refunded_cents" <= "donations"."charged_cents");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_charged_cents_check" CHECK ("orders"."charged_cents" >= 0);--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_refunded_cents_check" CHECK ("orders"."refunded_cents" >= 0 and "orders"."refunded_cents" <= "orders"."charged_cents");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_free_check" CHECK ("orders"."is_free" = ("orders"."payment_status" = 'free') and (not "orders"."is_free" or "orders"."charged_cents" = 0));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_payment_status_check" CHECK ("orders"."payment_status" in ('free', 'pending', 'completed', 'failed', 'refunded'));
