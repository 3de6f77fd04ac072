CREATE TABLE "helping_reports" (
	"id" serial PRIMARY KEY NOT NULL,
	"qr_code_id" integer NOT NULL,
	"medical_profile_id" integer NOT NULL,
	"responder_key_hash" text NOT NULL,
	"message" text,
	"location" text,
	"recipients" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "review_links" (
	"id" serial PRIMARY KEY NOT NULL,
	"medical_profile_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "smart_health_links" (
	"id" serial PRIMARY KEY NOT NULL,
	"medical_profile_id" integer NOT NULL,
	"manifest_id" text NOT NULL,
	"key" text NOT NULL,
	"label" text,
	"passcode_hash" text,
	"attempts_left" integer,
	"expires_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"access_count" integer DEFAULT 0 NOT NULL,
	"last_accessed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "smart_health_links_attempts_check" CHECK ("smart_health_links"."attempts_left" >= 0)
);
--> statement-breakpoint
ALTER TABLE "profile_audit" DROP CONSTRAINT "profile_audit_role_check";--> statement-breakpoint
ALTER TABLE "emergency_contacts" ADD COLUMN "alert_opt_in" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "medical_profiles" ADD COLUMN "review_interval_months" integer DEFAULT 6 NOT NULL;--> statement-breakpoint
ALTER TABLE "medical_profiles" ADD COLUMN "review_reminded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "medical_profiles" ADD COLUMN "helping_alerts" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "helping_reports" ADD CONSTRAINT "helping_reports_qr_code_id_qr_codes_id_fk" FOREIGN KEY ("qr_code_id") REFERENCES "public"."qr_codes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "helping_reports" ADD CONSTRAINT "helping_reports_medical_profile_id_medical_profiles_id_fk" FOREIGN KEY ("medical_profile_id") REFERENCES "public"."medical_profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_links" ADD CONSTRAINT "review_links_medical_profile_id_medical_profiles_id_fk" FOREIGN KEY ("medical_profile_id") REFERENCES "public"."medical_profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "smart_health_links" ADD CONSTRAINT "smart_health_links_medical_profile_id_medical_profiles_id_fk" FOREIGN KEY ("medical_profile_id") REFERENCES "public"."medical_profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "helping_reports_code_time_idx" ON "helping_reports" USING btree ("qr_code_id","created_at");--> statement-breakpoint
CREATE INDEX "helping_reports_profile_idx" ON "helping_reports" USING btree ("medical_profile_id");--> statement-breakpoint
CREATE INDEX "helping_reports_responder_idx" ON "helping_reports" USING btree ("responder_key_hash","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "review_links_token_unique" ON "review_links" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "review_links_profile_idx" ON "review_links" USING btree ("medical_profile_id");--> statement-breakpoint
CREATE UNIQUE INDEX "smart_health_links_manifest_unique" ON "smart_health_links" USING btree ("manifest_id");--> statement-breakpoint
CREATE INDEX "smart_health_links_profile_idx" ON "smart_health_links" USING btree ("medical_profile_id");--> statement-breakpoint
ALTER TABLE "profile_audit" ADD CONSTRAINT "profile_audit_role_check" CHECK ("profile_audit"."actor_role" in ('owner', 'responder', 'link_preview', 'link_recipient'));--> statement-breakpoint
ALTER TABLE "medical_profiles" ADD CONSTRAINT "medical_profiles_review_interval_check" CHECK ("medical_profiles"."review_interval_months" between 1 and 24);