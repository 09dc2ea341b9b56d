CREATE TABLE "billing_checkouts" (
	"id" text PRIMARY KEY NOT NULL,
	"plan" text NOT NULL,
	"locale" text NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"customer_id" text,
	"email" text,
	"success_url" text NOT NULL,
	"cancel_url" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone,
	"result_customer_id" text,
	"result_subscription_id" text,
	"result_invoice_id" text,
	CONSTRAINT "billing_checkouts_status" CHECK ("billing_checkouts"."status" in ('open', 'complete')),
	CONSTRAINT "billing_checkouts_plan" CHECK ("billing_checkouts"."plan" in ('starter', 'business', 'enterprise')),
	CONSTRAINT "billing_checkouts_locale" CHECK ("billing_checkouts"."locale" in ('en', 'ar')),
	CONSTRAINT "billing_checkouts_complete" CHECK (("billing_checkouts"."status" = 'complete') = ("billing_checkouts"."result_customer_id" is not null and "billing_checkouts"."result_subscription_id" is not null
        and "billing_checkouts"."result_invoice_id" is not null and "billing_checkouts"."completed_at" is not null)),
	CONSTRAINT "billing_checkouts_bounded" CHECK (char_length("billing_checkouts"."id") <= 64 and "billing_checkouts"."amount" >= 0 and "billing_checkouts"."currency" = 'sgd'
        and char_length(coalesce("billing_checkouts"."email", '')) <= 254 and char_length("billing_checkouts"."success_url") <= 2048
        and char_length("billing_checkouts"."cancel_url") <= 2048)
);
--> statement-breakpoint
CREATE TABLE "billing_clock" (
	"id" integer PRIMARY KEY NOT NULL,
	"offset_ms" bigint NOT NULL,
	CONSTRAINT "billing_clock_one_row" CHECK ("billing_clock"."id" = 1 and "billing_clock"."offset_ms" >= 0)
);
--> statement-breakpoint
CREATE TABLE "billing_customers" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"company" text,
	"locale" text NOT NULL,
	"card" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "billing_customers_email_key" UNIQUE("email"),
	CONSTRAINT "billing_customers_bounded" CHECK (char_length("billing_customers"."id") <= 64 and char_length("billing_customers"."email") <= 254 and char_length("billing_customers"."name") <= 200
        and char_length(coalesce("billing_customers"."company", '')) <= 200),
	CONSTRAINT "billing_customers_email_lower" CHECK ("billing_customers"."email" = lower("billing_customers"."email")),
	CONSTRAINT "billing_customers_locale" CHECK ("billing_customers"."locale" in ('en', 'ar')),
	CONSTRAINT "billing_customers_card" CHECK ("billing_customers"."card" is null or (jsonb_typeof("billing_customers"."card") = 'object' and "billing_customers"."card" ?& array['brand', 'last4', 'expMonth', 'expYear', 'renewals']
    and char_length("billing_customers"."card" ->> 'brand') <= 40 and ("billing_customers"."card" ->> 'last4') ~ '^[0-9]{4}$'))
);
--> statement-breakpoint
CREATE TABLE "billing_events" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "billing_events_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"type" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"event" jsonb NOT NULL,
	"delivered_at" timestamp with time zone,
	"claimed_by" text,
	"claimed_until" timestamp with time zone,
	CONSTRAINT "billing_events_bounded" CHECK (char_length("billing_events"."id") <= 64 and char_length("billing_events"."type") <= 100 and char_length(coalesce("billing_events"."claimed_by", '')) <= 64)
);
--> statement-breakpoint
CREATE TABLE "billing_invoice_counters" (
	"year" integer PRIMARY KEY NOT NULL,
	"last" integer NOT NULL,
	CONSTRAINT "billing_invoice_counters_bounded" CHECK ("billing_invoice_counters"."last" >= 0 and "billing_invoice_counters"."year" between 2000 and 9999)
);
--> statement-breakpoint
CREATE TABLE "billing_invoices" (
	"id" text PRIMARY KEY NOT NULL,
	"number" text NOT NULL,
	"sequence" bigint NOT NULL,
	"customer_id" text NOT NULL,
	"subscription_id" text NOT NULL,
	"status" text NOT NULL,
	"plan" text NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"period_end" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone,
	CONSTRAINT "billing_invoices_number_key" UNIQUE("number"),
	CONSTRAINT "billing_invoices_period_key" UNIQUE("subscription_id","period_start"),
	CONSTRAINT "billing_invoices_status" CHECK ("billing_invoices"."status" in ('paid', 'open')),
	CONSTRAINT "billing_invoices_plan" CHECK ("billing_invoices"."plan" in ('starter', 'business', 'enterprise')),
	CONSTRAINT "billing_invoices_bounded" CHECK (char_length("billing_invoices"."id") <= 64 and char_length("billing_invoices"."number") <= 32 and "billing_invoices"."amount" >= 0 and "billing_invoices"."currency" = 'sgd')
);
--> statement-breakpoint
CREATE TABLE "billing_subscriptions" (
	"id" text PRIMARY KEY NOT NULL,
	"customer_id" text NOT NULL,
	"plan" text NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"billing_anchor" timestamp with time zone NOT NULL,
	"period_index" integer NOT NULL,
	"current_period_start" timestamp with time zone NOT NULL,
	"current_period_end" timestamp with time zone NOT NULL,
	"cancel_at_period_end" boolean NOT NULL,
	"canceled_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"scheduled_plan" text,
	"scheduled_effective_at" timestamp with time zone,
	"scheduled_request_ref" text,
	"card" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "billing_subscriptions_status" CHECK ("billing_subscriptions"."status" in ('active', 'past_due', 'canceled')),
	CONSTRAINT "billing_subscriptions_plan" CHECK ("billing_subscriptions"."plan" in ('starter', 'business', 'enterprise') and coalesce("billing_subscriptions"."scheduled_plan" in ('starter', 'business', 'enterprise'), true)),
	CONSTRAINT "billing_subscriptions_scheduled" CHECK (("billing_subscriptions"."scheduled_plan" is null) = ("billing_subscriptions"."scheduled_effective_at" is null)
        and ("billing_subscriptions"."scheduled_plan" is not null or "billing_subscriptions"."scheduled_request_ref" is null)),
	CONSTRAINT "billing_subscriptions_bounded" CHECK (char_length("billing_subscriptions"."id") <= 64 and "billing_subscriptions"."amount" >= 0 and "billing_subscriptions"."currency" = 'sgd' and "billing_subscriptions"."period_index" >= 1
        and "billing_subscriptions"."current_period_end" > "billing_subscriptions"."current_period_start" and char_length(coalesce("billing_subscriptions"."scheduled_request_ref", '')) <= 64),
	CONSTRAINT "billing_subscriptions_card" CHECK ("billing_subscriptions"."card" is null or (jsonb_typeof("billing_subscriptions"."card") = 'object' and "billing_subscriptions"."card" ?& array['brand', 'last4', 'expMonth', 'expYear', 'renewals']
    and char_length("billing_subscriptions"."card" ->> 'brand') <= 40 and ("billing_subscriptions"."card" ->> 'last4') ~ '^[0-9]{4}$'))
);
--> statement-breakpoint
ALTER TABLE "billing_checkouts" ADD CONSTRAINT "billing_checkouts_customer_id_billing_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."billing_customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_checkouts" ADD CONSTRAINT "billing_checkouts_result_customer_fk" FOREIGN KEY ("result_customer_id") REFERENCES "public"."billing_customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_checkouts" ADD CONSTRAINT "billing_checkouts_result_subscription_fk" FOREIGN KEY ("result_subscription_id") REFERENCES "public"."billing_subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_checkouts" ADD CONSTRAINT "billing_checkouts_result_invoice_fk" FOREIGN KEY ("result_invoice_id") REFERENCES "public"."billing_invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_invoices" ADD CONSTRAINT "billing_invoices_customer_id_billing_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."billing_customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_invoices" ADD CONSTRAINT "billing_invoices_subscription_id_billing_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."billing_subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_subscriptions" ADD CONSTRAINT "billing_subscriptions_customer_id_billing_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."billing_customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "billing_checkouts_expires_at_idx" ON "billing_checkouts" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "billing_checkouts_customer_idx" ON "billing_checkouts" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "billing_checkouts_result_customer_idx" ON "billing_checkouts" USING btree ("result_customer_id");--> statement-breakpoint
CREATE INDEX "billing_events_undelivered_idx" ON "billing_events" USING btree ("seq") WHERE "billing_events"."delivered_at" is null;--> statement-breakpoint
CREATE INDEX "billing_events_delivered_at_idx" ON "billing_events" USING btree ("delivered_at");--> statement-breakpoint
CREATE INDEX "billing_invoices_customer_idx" ON "billing_invoices" USING btree ("customer_id","created_at","sequence");--> statement-breakpoint
CREATE UNIQUE INDEX "billing_subscriptions_one_current_idx" ON "billing_subscriptions" USING btree ("customer_id") WHERE "billing_subscriptions"."status" <> 'canceled';--> statement-breakpoint
CREATE INDEX "billing_subscriptions_customer_idx" ON "billing_subscriptions" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE INDEX "billing_subscriptions_due_idx" ON "billing_subscriptions" USING btree ("current_period_end","id") WHERE "billing_subscriptions"."status" <> 'canceled';