-- Nothing recorded visits before this migration (the table stood empty); the new columns need no backfill.
DELETE FROM "visits";--> statement-breakpoint
CREATE TABLE "analytics_salts" (
	"day" date PRIMARY KEY NOT NULL,
	"salt" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "qr_downloads" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"qr_code_id" integer,
	"user_id" text,
	"downloaded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rollup_state" (
	"name" text PRIMARY KEY NOT NULL,
	"done_until" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scan_hourly" (
	"hour" timestamp with time zone NOT NULL,
	"dimension" text NOT NULL,
	"value" text NOT NULL,
	"scans" integer NOT NULL,
	"emergency_scans" integer NOT NULL,
	"last_scan_at" timestamp with time zone,
	CONSTRAINT "scan_hourly_dimension_hour_value_pk" PRIMARY KEY("dimension","hour","value")
);
--> statement-breakpoint
CREATE TABLE "visit_hourly" (
	"hour" timestamp with time zone NOT NULL,
	"dimension" text NOT NULL,
	"value" text NOT NULL,
	"visits" integer NOT NULL,
	"real_visits" integer NOT NULL,
	"bot_visits" integer DEFAULT 0 NOT NULL,
	"owner_visits" integer DEFAULT 0 NOT NULL,
	"excluded_visits" integer DEFAULT 0 NOT NULL,
	"last_visit_at" timestamp with time zone,
	"last_real_visit_at" timestamp with time zone,
	CONSTRAINT "visit_hourly_dimension_hour_value_pk" PRIMARY KEY("dimension","hour","value")
);
--> statement-breakpoint
CREATE TABLE "visitor_daily" (
	"day" date PRIMARY KEY NOT NULL,
	"visitors" integer NOT NULL,
	"real_users" integer NOT NULL,
	"first_time_visitors" integer NOT NULL,
	"returning_visitors" integer NOT NULL,
	"email_visitors" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "visitor_hourly" (
	"hour" timestamp with time zone NOT NULL,
	"visitor_hash" bigint NOT NULL,
	"is_real" boolean NOT NULL,
	"is_first_visit" boolean NOT NULL,
	"from_email" boolean NOT NULL,
	"visits" integer NOT NULL,
	CONSTRAINT "visitor_hourly_hour_visitor_hash_pk" PRIMARY KEY("hour","visitor_hash")
);
--> statement-breakpoint
DROP INDEX "visits_email_idx";--> statement-breakpoint
ALTER TABLE "visits" ALTER COLUMN "ip_address" SET DATA TYPE inet USING "ip_address"::inet;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "first_visit_on" date;--> statement-breakpoint
ALTER TABLE "visits" ADD COLUMN "visitor_hash" bigint NOT NULL;--> statement-breakpoint
ALTER TABLE "visits" ADD COLUMN "is_first_visit" boolean NOT NULL;--> statement-breakpoint
ALTER TABLE "visits" ADD COLUMN "referrer_host" text;--> statement-breakpoint
ALTER TABLE "visits" ADD COLUMN "is_excluded" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "email_events" ADD COLUMN "machine" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "opened_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "clicked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "machine_opened_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "qr_downloads" ADD CONSTRAINT "qr_downloads_qr_code_id_qr_codes_id_fk" FOREIGN KEY ("qr_code_id") REFERENCES "public"."qr_codes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qr_downloads" ADD CONSTRAINT "qr_downloads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "qr_downloads_time_idx" ON "qr_downloads" USING btree ("downloaded_at");--> statement-breakpoint
CREATE INDEX "qr_downloads_code_idx" ON "qr_downloads" USING btree ("qr_code_id");--> statement-breakpoint
CREATE INDEX "qr_downloads_user_idx" ON "qr_downloads" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "users_created_idx" ON "users" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "visits_email_time_idx" ON "visits" USING btree ("visited_at") WHERE "visits"."email_id" is not null;--> statement-breakpoint
CREATE INDEX "visits_address_idx" ON "visits" USING btree ("visited_at") WHERE "visits"."ip_address" is not null;--> statement-breakpoint
CREATE INDEX "visits_email_idx" ON "visits" USING btree ("email_id") WHERE "visits"."email_id" is not null;--> statement-breakpoint
ALTER TABLE "visits" DROP COLUMN "visitor_id";--> statement-breakpoint
ALTER TABLE "visits" DROP COLUMN "user_agent";--> statement-breakpoint
ALTER TABLE "visits" DROP COLUMN "referrer";