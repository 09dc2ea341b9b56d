ALTER TABLE "accounts" ADD COLUMN "subscription_ended_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "accounts_subscription_ended_at_idx" ON "accounts" USING btree ("subscription_ended_at");--> statement-breakpoint
-- Accounts from before this column: their subscriptions' end events were handled already, so the
-- mark is set here once. The embedded engine's accounts get their last subscription's end when none
-- runs; every other account without a running engine subscription (Stripe's, which SQL cannot see)
-- gets now: the retention job asks billing before it removes anyone, and clears the mark of a client
-- who is subscribed.
UPDATE "accounts" AS a SET "subscription_ended_at" = coalesce(
  (SELECT max(s."ended_at") FROM "billing_subscriptions" s WHERE s."customer_id" = a."customer_id"),
  now())
WHERE a."subscription_ended_at" IS NULL
  AND NOT EXISTS (SELECT 1 FROM "billing_subscriptions" s WHERE s."customer_id" = a."customer_id" AND s."status" <> 'canceled');
