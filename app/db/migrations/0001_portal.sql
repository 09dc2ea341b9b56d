CREATE TABLE "accounts" (
	"customer_id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"company" text,
	"locale" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "accounts_email_key" UNIQUE("email"),
	CONSTRAINT "accounts_bounded" CHECK (char_length("accounts"."customer_id") <= 64 and char_length("accounts"."email") <= 254 and char_length("accounts"."name") <= 200
        and char_length(coalesce("accounts"."company", '')) <= 200),
	CONSTRAINT "accounts_email_lower" CHECK ("accounts"."email" = lower("accounts"."email")),
	CONSTRAINT "accounts_locale" CHECK ("accounts"."locale" in ('en', 'ar'))
);
--> statement-breakpoint
CREATE TABLE "handled_events" (
	"event_id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"handled_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "handled_events_bounded" CHECK (char_length("handled_events"."event_id") <= 255 and char_length("handled_events"."type") <= 100)
);
--> statement-breakpoint
CREATE TABLE "mail_queue" (
	"key_hash" text PRIMARY KEY NOT NULL,
	"to_address" text NOT NULL,
	"kind" text NOT NULL,
	"message" jsonb,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"claimed_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"last_error" text,
	"send_before" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mail_queue_status" CHECK ("mail_queue"."status" in ('pending', 'sending', 'sent', 'dropped')),
	CONSTRAINT "mail_queue_bounded" CHECK (char_length("mail_queue"."key_hash") <= 64 and char_length("mail_queue"."to_address") <= 254 and char_length("mail_queue"."kind") <= 40
        and char_length(coalesce("mail_queue"."last_error", '')) <= 500)
);
--> statement-breakpoint
CREATE TABLE "renewal_reminders" (
	"subscription_id" text NOT NULL,
	"period_end" timestamp with time zone NOT NULL,
	"queued_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "renewal_reminders_pkey" PRIMARY KEY("subscription_id","period_end"),
	CONSTRAINT "renewal_reminders_bounded" CHECK (char_length("renewal_reminders"."subscription_id") <= 255)
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"customer_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "sessions_bounded" CHECK (char_length("sessions"."id_hash") <= 64)
);
--> statement-breakpoint
CREATE TABLE "signin_codes" (
	"id" text PRIMARY KEY NOT NULL,
	"subject" text NOT NULL,
	"requester" text NOT NULL,
	"customer_id" text,
	"tries_left" integer NOT NULL,
	"next" text NOT NULL,
	"locale" text NOT NULL,
	"checkout" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "signin_codes_bounded" CHECK (char_length("signin_codes"."id") <= 64 and char_length("signin_codes"."subject") <= 64 and char_length("signin_codes"."requester") <= 64
        and char_length("signin_codes"."next") <= 2048 and "signin_codes"."tries_left" >= 0),
	CONSTRAINT "signin_codes_locale" CHECK ("signin_codes"."locale" in ('en', 'ar'))
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_customer_id_accounts_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."accounts"("customer_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signin_codes" ADD CONSTRAINT "signin_codes_customer_id_accounts_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."accounts"("customer_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "handled_events_handled_at_idx" ON "handled_events" USING btree ("handled_at");--> statement-breakpoint
CREATE INDEX "mail_queue_due_idx" ON "mail_queue" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "mail_queue_to_idx" ON "mail_queue" USING btree ("to_address");--> statement-breakpoint
CREATE INDEX "mail_queue_created_at_idx" ON "mail_queue" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "renewal_reminders_queued_at_idx" ON "renewal_reminders" USING btree ("queued_at");--> statement-breakpoint
CREATE INDEX "sessions_customer_id_idx" ON "sessions" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "sessions_expires_at_idx" ON "sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "signin_codes_subject_idx" ON "signin_codes" USING btree ("subject","requester");--> statement-breakpoint
CREATE INDEX "signin_codes_expires_at_idx" ON "signin_codes" USING btree ("expires_at");