ALTER TABLE "newsletter_signups" DROP CONSTRAINT "newsletter_signups_bounded";--> statement-breakpoint
ALTER TABLE "newsletter_signups" ADD COLUMN "status" text DEFAULT 'pending' NOT NULL;--> statement-breakpoint
ALTER TABLE "newsletter_signups" ADD COLUMN "consent_version" text;--> statement-breakpoint
ALTER TABLE "newsletter_signups" ADD COLUMN "pending_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "newsletter_signups" ADD COLUMN "confirm_mails" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "newsletter_signups" ADD COLUMN "confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "newsletter_signups" ADD COLUMN "unsubscribed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "newsletter_signups" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "newsletter_signups_expires_at_idx" ON "newsletter_signups" USING btree ("expires_at");--> statement-breakpoint
ALTER TABLE "newsletter_signups" ADD CONSTRAINT "newsletter_signups_status" CHECK ("newsletter_signups"."status" in ('pending', 'confirmed', 'unsubscribed')
        and ("newsletter_signups"."status" <> 'confirmed' or "newsletter_signups"."confirmed_at" is not null)
        and ("newsletter_signups"."status" = 'unsubscribed') = ("newsletter_signups"."unsubscribed_at" is not null));--> statement-breakpoint
ALTER TABLE "newsletter_signups" ADD CONSTRAINT "newsletter_signups_bounded" CHECK (char_length("newsletter_signups"."email") <= 254 and char_length("newsletter_signups"."email_key") <= 254 and char_length("newsletter_signups"."page") <= 2048
        and char_length(coalesce("newsletter_signups"."consent_version", '')) <= 40 and "newsletter_signups"."confirm_mails" >= 0);