CREATE TABLE "profile_audit" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
	"kind" text NOT NULL,
	"action" text NOT NULL,
	"profile_id" integer NOT NULL,
	"owner_user_id" text NOT NULL,
	"actor_user_id" text,
	"actor_role" text NOT NULL,
	"ip_address" text,
	"place" text,
	"fields" text[] DEFAULT '{}'::text[] NOT NULL,
	"detail" text,
	CONSTRAINT "profile_audit_kind_check" CHECK ("profile_audit"."kind" in ('read', 'change')),
	CONSTRAINT "profile_audit_role_check" CHECK ("profile_audit"."actor_role" in ('owner', 'responder', 'link_preview'))
);
--> statement-breakpoint
ALTER TABLE "medical_profiles" ALTER COLUMN "date_of_birth" SET DATA TYPE text;--> statement-breakpoint
ALTER TABLE "profile_audit" ADD CONSTRAINT "profile_audit_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_audit" ADD CONSTRAINT "profile_audit_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "profile_audit_owner_idx" ON "profile_audit" USING btree ("owner_user_id","occurred_at");--> statement-breakpoint
CREATE INDEX "profile_audit_time_idx" ON "profile_audit" USING btree ("occurred_at");--> statement-breakpoint
CREATE INDEX "profile_audit_profile_idx" ON "profile_audit" USING btree ("profile_id","occurred_at");--> statement-breakpoint
CREATE INDEX "profile_audit_actor_idx" ON "profile_audit" USING btree ("actor_user_id") WHERE "profile_audit"."actor_user_id" is not null;--> statement-breakpoint
CREATE FUNCTION "profile_audit_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	-- Erasing an account takes its own record with it, and stops naming it as the reader of others' profiles.
	IF TG_OP = 'DELETE' AND NOT EXISTS (SELECT 1 FROM "users" WHERE "id" = OLD."owner_user_id") THEN
		RETURN OLD;
	END IF;
	IF TG_OP = 'UPDATE' AND OLD."actor_user_id" IS NOT NULL AND NEW."actor_user_id" IS NULL
		AND NOT EXISTS (SELECT 1 FROM "users" WHERE "id" = OLD."actor_user_id")
		AND to_jsonb(NEW) - 'actor_user_id' = to_jsonb(OLD) - 'actor_user_id' THEN
		RETURN NEW;
	END IF;
	RAISE EXCEPTION 'profile_audit is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "profile_audit_no_update_or_delete" BEFORE UPDATE OR DELETE ON "profile_audit" FOR EACH ROW EXECUTE FUNCTION "profile_audit_append_only"();--> statement-breakpoint
CREATE TRIGGER "profile_audit_no_truncate" BEFORE TRUNCATE ON "profile_audit" FOR EACH STATEMENT EXECUTE FUNCTION "profile_audit_append_only"();
