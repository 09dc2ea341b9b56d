CREATE TABLE "lake_editor_preferences" (
	"email" text NOT NULL,
	"key" text NOT NULL,
	"value" jsonb,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lake_editor_preferences_email_key_pk" PRIMARY KEY("email","key"),
	CONSTRAINT "lake_editor_preferences_bounded" CHECK (char_length("lake_editor_preferences"."key") <= 200)
);
--> statement-breakpoint
ALTER TABLE "lake_editor_preferences" ADD CONSTRAINT "lake_editor_preferences_email_lake_editors_email_fk" FOREIGN KEY ("email") REFERENCES "public"."lake_editors"("email") ON DELETE cascade ON UPDATE no action;