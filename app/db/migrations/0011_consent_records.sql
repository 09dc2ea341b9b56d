CREATE TABLE "consent_records" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subject" text NOT NULL,
	"version" text NOT NULL,
	"analytics" boolean NOT NULL,
	"marketing" boolean NOT NULL,
	"action" text NOT NULL,
	"withdrawal" boolean NOT NULL,
	"gpc" boolean NOT NULL,
	"via" text NOT NULL,
	"locale" text NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL,
	CONSTRAINT "consent_records_bounded" CHECK (char_length("consent_records"."subject") <= 40 and char_length("consent_records"."version") <= 20
        and "consent_records"."action" in ('accept_all', 'reject_all', 'choose') and "consent_records"."via" in ('script', 'form')
        and "consent_records"."locale" in ('en', 'ar'))
);
--> statement-breakpoint
CREATE INDEX "consent_records_recorded_at_idx" ON "consent_records" USING btree ("recorded_at");--> statement-breakpoint
CREATE INDEX "consent_records_subject_idx" ON "consent_records" USING btree ("subject");