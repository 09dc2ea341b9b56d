CREATE TABLE "lake_editor_codes" (
	"id" text PRIMARY KEY NOT NULL,
	"subject" text NOT NULL,
	"requester" text NOT NULL,
	"email" text,
	"tries_left" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "lake_editor_codes_bounded" CHECK (char_length("lake_editor_codes"."id") <= 64 and char_length("lake_editor_codes"."subject") <= 64 and char_length("lake_editor_codes"."requester") <= 64 and "lake_editor_codes"."tries_left" >= 0)
);
--> statement-breakpoint
CREATE TABLE "lake_editor_sessions" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "lake_editor_sessions_bounded" CHECK (char_length("lake_editor_sessions"."id_hash") <= 64)
);
--> statement-breakpoint
CREATE TABLE "lake_editors" (
	"email" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lake_editors_bounded" CHECK (char_length("lake_editors"."email") <= 254 and char_length("lake_editors"."name") <= 200)
);
--> statement-breakpoint
ALTER TABLE "lake_editor_codes" ADD CONSTRAINT "lake_editor_codes_email_lake_editors_email_fk" FOREIGN KEY ("email") REFERENCES "public"."lake_editors"("email") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lake_editor_sessions" ADD CONSTRAINT "lake_editor_sessions_email_lake_editors_email_fk" FOREIGN KEY ("email") REFERENCES "public"."lake_editors"("email") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lake_editor_codes_subject_idx" ON "lake_editor_codes" USING btree ("subject","requester");--> statement-breakpoint
CREATE INDEX "lake_editor_codes_expires_at_idx" ON "lake_editor_codes" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "lake_editor_sessions_email_idx" ON "lake_editor_sessions" USING btree ("email");--> statement-breakpoint
CREATE INDEX "lake_editor_sessions_expires_at_idx" ON "lake_editor_sessions" USING btree ("expires_at");