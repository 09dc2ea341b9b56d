CREATE TABLE "billing_credit_note_counters" (
	"year" integer PRIMARY KEY NOT NULL,
	"last" integer NOT NULL,
	CONSTRAINT "billing_credit_note_counters_bounded" CHECK ("billing_credit_note_counters"."last" >= 0 and "billing_credit_note_counters"."year" between 2000 and 9999)
);
--> statement-breakpoint
CREATE TABLE "billing_credit_notes" (
	"id" text PRIMARY KEY NOT NULL,
	"number" text NOT NULL,
	"sequence" bigint NOT NULL,
	"invoice_id" text NOT NULL,
	"customer_id" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"amount" integer NOT NULL,
	"outcome" text NOT NULL,
	"snapshot" jsonb NOT NULL,
	CONSTRAINT "billing_credit_notes_number_key" UNIQUE("number"),
	CONSTRAINT "billing_credit_notes_invoice_key" UNIQUE("invoice_id"),
	CONSTRAINT "billing_credit_notes_outcome" CHECK ("billing_credit_notes"."outcome" in ('refunded', 'voided')),
	CONSTRAINT "billing_credit_notes_bounded" CHECK (char_length("billing_credit_notes"."id") <= 64 and char_length("billing_credit_notes"."number") <= 32 and "billing_credit_notes"."amount" >= 0)
);
--> statement-breakpoint
ALTER TABLE "billing_invoices" DROP CONSTRAINT "billing_invoices_status";--> statement-breakpoint
ALTER TABLE "billing_credit_notes" ADD CONSTRAINT "billing_credit_notes_invoice_id_billing_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."billing_invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_credit_notes" ADD CONSTRAINT "billing_credit_notes_customer_id_billing_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."billing_customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "billing_credit_notes_customer_idx" ON "billing_credit_notes" USING btree ("customer_id","created_at");--> statement-breakpoint
ALTER TABLE "billing_invoices" ADD CONSTRAINT "billing_invoices_status" CHECK ("billing_invoices"."status" in ('paid', 'open', 'void'));--> statement-breakpoint
-- An issued credit note never changes (ADR 0028): any update is refused by the database itself.
-- Deletion stays possible for the accounting retention (app/portal/retention.server.ts).
CREATE FUNCTION "billing_credit_notes_immutable"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'billing_credit_notes rows are immutable (credit note %)', OLD.number USING ERRCODE = 'raise_exception';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "billing_credit_notes_no_update" BEFORE UPDATE ON "billing_credit_notes"
  FOR EACH ROW EXECUTE FUNCTION "billing_credit_notes_immutable"();
