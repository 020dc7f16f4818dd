CREATE TABLE "push_subscriptions" (
	"endpoint" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"p256dh" text NOT NULL,
	"auth" text NOT NULL,
	"time_zone" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reminder_deliveries" (
	"prescription_id" uuid NOT NULL,
	"dose_date" text NOT NULL,
	"dose_time" text NOT NULL,
	"kind" text NOT NULL,
	"user_id" uuid,
	"due_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "reminder_deliveries_prescription_id_dose_date_dose_time_kind_pk" PRIMARY KEY("prescription_id","dose_date","dose_time","kind")
);
--> statement-breakpoint
ALTER TABLE "push_subscriptions" ADD CONSTRAINT "push_subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "push_subscriptions_user_idx" ON "push_subscriptions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "reminder_deliveries_due_idx" ON "reminder_deliveries" USING btree ("sent_at","due_at");