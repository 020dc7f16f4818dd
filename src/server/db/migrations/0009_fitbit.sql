CREATE TABLE "fitbit_authorizations" (
	"patient_id" uuid PRIMARY KEY NOT NULL,
	"state_hash" text NOT NULL,
	"code_verifier_enc" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fitbit_connections" (
	"patient_id" uuid PRIMARY KEY NOT NULL,
	"fitbit_user_id" text NOT NULL,
	"access_token_enc" text NOT NULL,
	"refresh_token_enc" text NOT NULL,
	"access_expires_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"fetched_at" timestamp with time zone,
	"checked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fitbit_days" (
	"patient_id" uuid NOT NULL,
	"day" date NOT NULL,
	"steps" integer,
	"resting_heart_rate" integer,
	"sleep_minutes" integer,
	CONSTRAINT "fitbit_days_patient_id_day_pk" PRIMARY KEY("patient_id","day")
);
--> statement-breakpoint
ALTER TABLE "fitbit_authorizations" ADD CONSTRAINT "fitbit_authorizations_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fitbit_connections" ADD CONSTRAINT "fitbit_connections_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fitbit_days" ADD CONSTRAINT "fitbit_days_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;