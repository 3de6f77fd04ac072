CREATE TABLE "owner_recovery_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"code_hash" text NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "owner_settings" (
	"user_id" text PRIMARY KEY NOT NULL,
	"totp_secret" text,
	"totp_enabled_at" timestamp with time zone,
	"totp_last_step" bigint,
	"orders_seen_at" timestamp with time zone,
	"checklist" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "qr_batches" (
	"id" serial PRIMARY KEY NOT NULL,
	"created_by_user_id" text,
	"count" integer NOT NULL,
	"format" text NOT NULL,
	"layout" text,
	"nudge_x_mm" integer DEFAULT 0 NOT NULL,
	"nudge_y_mm" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "qr_batches_count_check" CHECK ("qr_batches"."count" between 1 and 1000),
	CONSTRAINT "qr_batches_format_check" CHECK ("qr_batches"."format" in ('png', 'docx', 'pdf', 'svg'))
);
--> statement-breakpoint
DROP INDEX "order_assigned_codes_code_idx";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "notices_opted_out_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "qr_codes" ADD COLUMN "batch_id" integer;--> statement-breakpoint
ALTER TABLE "owner_recovery_codes" ADD CONSTRAINT "owner_recovery_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "owner_settings" ADD CONSTRAINT "owner_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qr_batches" ADD CONSTRAINT "qr_batches_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "owner_recovery_codes_user_idx" ON "owner_recovery_codes" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "qr_batches_time_idx" ON "qr_batches" USING btree ("created_at");--> statement-breakpoint
ALTER TABLE "qr_codes" ADD CONSTRAINT "qr_codes_batch_id_qr_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."qr_batches"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "qr_codes_batch_idx" ON "qr_codes" USING btree ("batch_id");--> statement-breakpoint
CREATE UNIQUE INDEX "order_assigned_codes_code_unique" ON "order_assigned_codes" USING btree ("qr_code_id");