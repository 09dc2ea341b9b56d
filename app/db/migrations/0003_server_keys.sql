CREATE TABLE "server_keys" (
	"name" text PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "server_keys_bounded" CHECK (char_length("server_keys"."name") <= 64 and "server_keys"."key" ~ '^[A-Za-z0-9_-]{43}$')
);
