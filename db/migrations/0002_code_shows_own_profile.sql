-- A code shows its own profile or nothing. Links that break the rule are cleared first (a code with no owner, or a
-- profile of another account); such a code shows the neutral page until its owner links it again.
UPDATE "qr_codes" SET "medical_profile_id" = NULL WHERE "medical_profile_id" IS NOT NULL AND ("user_id" IS NULL OR NOT EXISTS (SELECT 1 FROM "medical_profiles" p WHERE p."id" = "qr_codes"."medical_profile_id" AND p."user_id" = "qr_codes"."user_id"));--> statement-breakpoint
-- One own profile per account: of several marked 'self', the oldest stays the own one.
UPDATE "medical_profiles" SET "relationship_to_user" = 'other' WHERE "relationship_to_user" = 'self' AND "id" <> (SELECT min(p."id") FROM "medical_profiles" p WHERE p."user_id" = "medical_profiles"."user_id" AND p."relationship_to_user" = 'self');--> statement-breakpoint
ALTER TABLE "qr_codes" DROP CONSTRAINT "qr_codes_medical_profile_id_medical_profiles_id_fk";--> statement-breakpoint
CREATE UNIQUE INDEX "medical_profiles_id_user_unique" ON "medical_profiles" USING btree ("id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "medical_profiles_own_unique" ON "medical_profiles" USING btree ("user_id") WHERE "medical_profiles"."relationship_to_user" = 'self';--> statement-breakpoint
-- Deleting a profile clears the code's link only (never its owner): PostgreSQL 15's column list, which drizzle cannot express.
ALTER TABLE "qr_codes" ADD CONSTRAINT "qr_codes_profile_of_owner_fk" FOREIGN KEY ("medical_profile_id","user_id") REFERENCES "public"."medical_profiles"("id","user_id") ON DELETE SET NULL ("medical_profile_id") ON UPDATE no action;
