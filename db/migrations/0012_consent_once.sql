-- A retried agreement used to be recorded again: keep each person's first agreement to a form's version.
DELETE FROM "consents" c USING "consents" earlier
WHERE c."agreed" AND earlier."agreed"
	AND earlier."user_id" = c."user_id" AND earlier."consent_type" = c."consent_type" AND earlier."version" = c."version"
	AND earlier."id" < c."id";--> statement-breakpoint
CREATE UNIQUE INDEX "consents_agreed_once_unique" ON "consents" USING btree ("user_id","consent_type","version") WHERE "consents"."agreed";
