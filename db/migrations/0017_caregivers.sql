CREATE TABLE "profile_caregivers" (
	"id" serial PRIMARY KEY NOT NULL,
	"medical_profile_id" integer,
	"owner_user_id" text NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"caregiver_user_id" text,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "profile_caregivers_role_check" CHECK ("profile_caregivers"."role" in ('editor', 'viewer')),
	CONSTRAINT "profile_caregivers_status_check" CHECK ("profile_caregivers"."status" in ('pending', 'active', 'revoked', 'left')),
	CONSTRAINT "profile_caregivers_accepted_check" CHECK ("profile_caregivers"."status" <> 'active' or "profile_caregivers"."caregiver_user_id" is not null)
);
--> statement-breakpoint
ALTER TABLE "profile_audit" DROP CONSTRAINT "profile_audit_role_check";--> statement-breakpoint
ALTER TABLE "emails" DROP CONSTRAINT "emails_email_type_check";--> statement-breakpoint
ALTER TABLE "profile_caregivers" ADD CONSTRAINT "profile_caregivers_medical_profile_id_medical_profiles_id_fk" FOREIGN KEY ("medical_profile_id") REFERENCES "public"."medical_profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_caregivers" ADD CONSTRAINT "profile_caregivers_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_caregivers" ADD CONSTRAINT "profile_caregivers_caregiver_user_id_users_id_fk" FOREIGN KEY ("caregiver_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "profile_caregivers_token_unique" ON "profile_caregivers" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "profile_caregivers_profile_idx" ON "profile_caregivers" USING btree ("medical_profile_id","status");--> statement-breakpoint
CREATE INDEX "profile_caregivers_owner_idx" ON "profile_caregivers" USING btree ("owner_user_id");--> statement-breakpoint
CREATE INDEX "profile_caregivers_caregiver_idx" ON "profile_caregivers" USING btree ("caregiver_user_id") WHERE "profile_caregivers"."caregiver_user_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "profile_caregivers_active_unique" ON "profile_caregivers" USING btree ("medical_profile_id","caregiver_user_id") WHERE "profile_caregivers"."status" = 'active';--> statement-breakpoint
ALTER TABLE "profile_audit" ADD CONSTRAINT "profile_audit_role_check" CHECK ("profile_audit"."actor_role" in ('owner', 'responder', 'link_preview', 'link_recipient', 'caregiver'));--> statement-breakpoint
ALTER TABLE "emails" ADD CONSTRAINT "emails_email_type_check" CHECK ("emails"."email_type" in ('email-change', 'email-change-requested', 'email-changed', 'order-confirmation', 'order-shipped', 'qr-request-confirmation', 'qr-request-fulfilled', 'scan-alert', 'helping-alert', 'review-reminder', 'caregiver-invitation', 'donation-receipt', 'visitor-notice')) NOT VALID;