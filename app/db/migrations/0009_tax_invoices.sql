CREATE TABLE "billing_exchange_rates" (
	"base" text NOT NULL,
	"quote" text NOT NULL,
	"effective_on" text NOT NULL,
	"rate" text NOT NULL,
	"source" text NOT NULL,
	"fixture" boolean DEFAULT false NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL,
	CONSTRAINT "billing_exchange_rates_pkey" PRIMARY KEY("base","quote","effective_on"),
	CONSTRAINT "billing_exchange_rates_valid" CHECK ("billing_exchange_rates"."base" ~ '^[A-Z]{3}$' and "billing_exchange_rates"."quote" ~ '^[A-Z]{3}$' and "billing_exchange_rates"."effective_on" ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'
        and "billing_exchange_rates"."rate" ~ '^[0-9]{1,6}([.][0-9]{1,8})?$' and char_length("billing_exchange_rates"."source") between 1 and 200)
);
--> statement-breakpoint
ALTER TABLE "billing_customers" ADD COLUMN "billing_details" jsonb;--> statement-breakpoint
ALTER TABLE "billing_invoices" ADD COLUMN "tax" jsonb;