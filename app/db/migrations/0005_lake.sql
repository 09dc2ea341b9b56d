CREATE TABLE "lake_assets" (
	"file_name" text PRIMARY KEY NOT NULL,
	"asset_id" text NOT NULL,
	"mime_type" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lake_documents" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text,
	"rev" text NOT NULL,
	"doc" jsonb,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "lake_documents_bounded" CHECK (char_length("lake_documents"."id") <= 200)
);
--> statement-breakpoint
CREATE TABLE "lake_transactions" (
	"seq" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "lake_transactions_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"id" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"author" text NOT NULL,
	"document_ids" jsonb NOT NULL,
	"effects" jsonb NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "lake_transactions_id_idx" ON "lake_transactions" USING btree ("id");