-- Trigram indexes for partial, case-insensitive name search (pg_trgm is a trusted extension: the database owner may create it).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "directory_doctors" (
	"doctor_id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"npi" text NOT NULL,
	"name" text NOT NULL,
	"speciality" text NOT NULL,
	"qualifications" text DEFAULT '' NOT NULL,
	"gender" text,
	"address" text NOT NULL,
	"city" text NOT NULL,
	"state" text NOT NULL,
	"zip" text NOT NULL,
	"phone" text,
	"latitude" double precision,
	"longitude" double precision,
	"accepting_new_patients" boolean,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "directory_pharmacies" (
	"pharmacy_id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"npi" text NOT NULL,
	"name" text NOT NULL,
	"address" text NOT NULL,
	"city" text NOT NULL,
	"state" text NOT NULL,
	"zip" text NOT NULL,
	"phone" text,
	"latitude" double precision,
	"longitude" double precision,
	"opening_hours" text,
	"open_24_hours" boolean,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "directory_doctors_npi_unique" ON "directory_doctors" USING btree ("npi");--> statement-breakpoint
CREATE INDEX "directory_doctors_name_trgm_idx" ON "directory_doctors" USING gin (lower("name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "directory_doctors_speciality_name_idx" ON "directory_doctors" USING btree (lower("speciality"),"name","doctor_id");--> statement-breakpoint
CREATE INDEX "directory_doctors_name_idx" ON "directory_doctors" USING btree ("name","doctor_id");--> statement-breakpoint
CREATE INDEX "directory_doctors_location_idx" ON "directory_doctors" USING btree ("latitude","longitude");--> statement-breakpoint
CREATE UNIQUE INDEX "directory_pharmacies_npi_unique" ON "directory_pharmacies" USING btree ("npi");--> statement-breakpoint
CREATE INDEX "directory_pharmacies_name_trgm_idx" ON "directory_pharmacies" USING gin (lower("name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "directory_pharmacies_zip_idx" ON "directory_pharmacies" USING btree ("zip");--> statement-breakpoint
CREATE INDEX "directory_pharmacies_location_idx" ON "directory_pharmacies" USING btree ("latitude","longitude");