CREATE TABLE "care_activity" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"patient_id" uuid NOT NULL,
	"actor_user_id" uuid,
	"actor_name" text NOT NULL,
	"kind" text NOT NULL,
	"resource" text NOT NULL,
	"op" text,
	"record_id" uuid,
	"count" integer DEFAULT 1 NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "care_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"patient_id" uuid NOT NULL,
	"caregiver_email" text NOT NULL,
	"caregiver_id" uuid,
	"is_family" boolean DEFAULT false NOT NULL,
	"relationship" text,
	"permissions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"phone_number" text,
	"status" text NOT NULL,
	"invite_token_hash" text,
	"invite_expires_at" timestamp with time zone,
	"invite_used_at" timestamp with time zone,
	"onboarding_token_hash" text,
	"onboarding_expires_at" timestamp with time zone,
	"onboarding_used_at" timestamp with time zone,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "permission_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"link_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"caregiver_id" uuid NOT NULL,
	"requested_permissions" jsonb NOT NULL,
	"status" text NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "care_links" ADD COLUMN "phone_number" text;--> statement-breakpoint
ALTER TABLE "care_links" ADD COLUMN "request_id" uuid;--> statement-breakpoint
ALTER TABLE "care_activity" ADD CONSTRAINT "care_activity_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "care_activity" ADD CONSTRAINT "care_activity_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "care_requests" ADD CONSTRAINT "care_requests_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "care_requests" ADD CONSTRAINT "care_requests_caregiver_id_caregivers_id_fk" FOREIGN KEY ("caregiver_id") REFERENCES "public"."caregivers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "permission_requests" ADD CONSTRAINT "permission_requests_link_id_care_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."care_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "permission_requests" ADD CONSTRAINT "permission_requests_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "permission_requests" ADD CONSTRAINT "permission_requests_caregiver_id_caregivers_id_fk" FOREIGN KEY ("caregiver_id") REFERENCES "public"."caregivers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "care_activity_patient_idx" ON "care_activity" USING btree ("patient_id","at");--> statement-breakpoint
CREATE INDEX "care_requests_patient_idx" ON "care_requests" USING btree ("patient_id","created_at");--> statement-breakpoint
CREATE INDEX "care_requests_caregiver_idx" ON "care_requests" USING btree ("caregiver_id","created_at");--> statement-breakpoint
CREATE INDEX "care_requests_email_idx" ON "care_requests" USING btree ("caregiver_email");--> statement-breakpoint
CREATE UNIQUE INDEX "care_requests_invite_token_unique" ON "care_requests" USING btree ("invite_token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "care_requests_onboarding_token_unique" ON "care_requests" USING btree ("onboarding_token_hash");--> statement-breakpoint
CREATE INDEX "permission_requests_patient_idx" ON "permission_requests" USING btree ("patient_id","requested_at");--> statement-breakpoint
CREATE INDEX "permission_requests_caregiver_idx" ON "permission_requests" USING btree ("caregiver_id","requested_at");