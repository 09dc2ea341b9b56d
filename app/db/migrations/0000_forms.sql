CREATE TABLE "data_imports" (
	"name" text PRIMARY KEY NOT NULL,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL,
	"counts" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "faq_questions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"phone" text NOT NULL,
	"question" text NOT NULL,
	"locale" text NOT NULL,
	"page" text NOT NULL,
	"submitted_at" timestamp with time zone NOT NULL,
	CONSTRAINT "faq_questions_bounded" CHECK (char_length("faq_questions"."name") <= 200 and char_length("faq_questions"."email") <= 254 and char_length("faq_questions"."phone") <= 32
        and char_length("faq_questions"."question") <= 5000 and char_length("faq_questions"."page") <= 2048),
	CONSTRAINT "faq_questions_locale" CHECK ("faq_questions"."locale" in ('en', 'ar'))
);
--> statement-breakpoint
CREATE TABLE "form_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"form" text NOT NULL,
	"content_hash" text NOT NULL,
	"submission_id" uuid,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "form_tokens_form" CHECK ("form_tokens"."form" in ('faq', 'newsletter')),
	CONSTRAINT "form_tokens_bounded" CHECK (char_length("form_tokens"."token_hash") <= 64 and char_length("form_tokens"."content_hash") <= 64)
);
--> statement-breakpoint
CREATE TABLE "newsletter_signups" (
	"id" uuid PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"email_key" text NOT NULL,
	"locale" text NOT NULL,
	"page" text NOT NULL,
	"submitted_at" timestamp with time zone NOT NULL,
	CONSTRAINT "newsletter_signups_email_key_key" UNIQUE("email_key"),
	CONSTRAINT "newsletter_signups_bounded" CHECK (char_length("newsletter_signups"."email") <= 254 and char_length("newsletter_signups"."email_key") <= 254 and char_length("newsletter_signups"."page") <= 2048),
	CONSTRAINT "newsletter_signups_locale" CHECK ("newsletter_signups"."locale" in ('en', 'ar'))
);
--> statement-breakpoint
CREATE TABLE "rate_limits" (
	"kind" text NOT NULL,
	"subject" text NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "rate_limits_pkey" PRIMARY KEY("kind","subject"),
	CONSTRAINT "rate_limits_bounded" CHECK (char_length("rate_limits"."kind") <= 64 and char_length("rate_limits"."subject") <= 64 and "rate_limits"."count" >= 0)
);
--> statement-breakpoint
CREATE INDEX "faq_questions_submitted_at_idx" ON "faq_questions" USING btree ("submitted_at");--> statement-breakpoint
CREATE INDEX "form_tokens_expires_at_idx" ON "form_tokens" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "newsletter_signups_submitted_at_idx" ON "newsletter_signups" USING btree ("submitted_at");--> statement-breakpoint
CREATE INDEX "rate_limits_expires_at_idx" ON "rate_limits" USING btree ("expires_at");