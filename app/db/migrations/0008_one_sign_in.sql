ALTER TABLE "signin_codes" ADD COLUMN "audience" text DEFAULT 'client' NOT NULL;--> statement-breakpoint
ALTER TABLE "signin_codes" ADD COLUMN "editor_email" text;--> statement-breakpoint
ALTER TABLE "signin_codes" ADD CONSTRAINT "signin_codes_editor_email_lake_editors_email_fk" FOREIGN KEY ("editor_email") REFERENCES "public"."lake_editors"("email") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signin_codes" ADD CONSTRAINT "signin_codes_audience" CHECK ("signin_codes"."audience" in ('client', 'editor') and ("signin_codes"."audience" = 'editor' or "signin_codes"."editor_email" is null)
        and ("signin_codes"."audience" = 'client' or ("signin_codes"."customer_id" is null and "signin_codes"."checkout" is null)));