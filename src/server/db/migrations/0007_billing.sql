CREATE TABLE "billing_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "plan_usage" (
	"user_id" uuid NOT NULL,
	"limit_name" text NOT NULL,
	"period" text NOT NULL,
	"used" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "plan_usage_user_id_limit_name_period_pk" PRIMARY KEY("user_id","limit_name","period")
);
--> statement-breakpoint
CREATE TABLE "plans" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"price_cents" integer NOT NULL,
	"currency" text DEFAULT 'usd' NOT NULL,
	"interval" text NOT NULL,
	"trial_period_days" integer DEFAULT 0 NOT NULL,
	"limits" jsonb NOT NULL,
	"offered" boolean DEFAULT true NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"stripe_price_id" text
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"id" text NOT NULL,
	"customer_id" text NOT NULL,
	"plan_id" text NOT NULL,
	"status" text NOT NULL,
	"cancel_at_period_end" boolean DEFAULT false NOT NULL,
	"start_date" timestamp with time zone NOT NULL,
	"end_date" timestamp with time zone,
	"current_period_end" timestamp with time zone,
	"trial_end" timestamp with time zone,
	"provider" text NOT NULL,
	"provider_updated_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscriptions_id_unique" UNIQUE("id")
);
--> statement-breakpoint
CREATE TABLE "test_billing_objects" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"customer_id" text NOT NULL,
	"object" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "signup_plan_id" text;--> statement-breakpoint
ALTER TABLE "plan_usage" ADD CONSTRAINT "plan_usage_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "subscriptions_customer_idx" ON "subscriptions" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "test_billing_objects_customer_idx" ON "test_billing_objects" USING btree ("customer_id","kind");--> statement-breakpoint
-- The plans offered at first (plans are data: change them here, by a later migration, or by SQL).
INSERT INTO "plans" ("id", "name", "description", "price_cents", "currency", "interval", "trial_period_days", "limits", "sort_order") VALUES
	('free', 'Free', 'Your records, medicine schedule and reminders on every device, with up to 2 caregivers and 5 lab reports read automatically each month.', 0, 'usd', 'month', 0, '{"caregivers": 2, "labExtractionsPerMonth": 5}', 0),
	('plus-monthly', 'Family Plus', 'As many caregivers as the family needs, and 100 lab reports read automatically each month. Billed monthly.', 699, 'usd', 'month', 14, '{"caregivers": null, "labExtractionsPerMonth": 100}', 1),
	('plus-yearly', 'Family Plus Yearly', 'Everything in Family Plus, billed once a year: two months free.', 6990, 'usd', 'year', 14, '{"caregivers": null, "labExtractionsPerMonth": 100}', 2);
--> statement-breakpoint
-- Patients who signed up before plans existed keep using Kincare: each gets the Free plan, with a
-- customer id of Kincare's own (cus_local_…) until a payment provider gives them one.
UPDATE "users" SET "stripe_customer_id" = 'cus_local_' || replace("id"::text, '-', '') WHERE "role" = 'Patient' AND "stripe_customer_id" IS NULL;
--> statement-breakpoint
INSERT INTO "subscriptions" ("user_id", "id", "customer_id", "plan_id", "status", "start_date", "provider", "provider_updated_at")
	SELECT "id", 'free_' || replace(gen_random_uuid()::text, '-', ''), "stripe_customer_id", 'free', 'active', now(), 'none', now()
	FROM "users" WHERE "role" = 'Patient';
