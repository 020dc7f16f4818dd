-- A record is its resource and its id (as on a device, one table per resource keyed by id), no longer its
-- id alone: a row of one resource that took the id of another resource's record (a patient's medical
-- history, a day's check-in, a dose's mark, whose ids anyone knowing the patient can work out) stays as
-- it is, and no longer keeps that record from being written. Every row is kept; no two rows share an id yet.
ALTER TABLE "records" DROP CONSTRAINT "records_pkey";--> statement-breakpoint
ALTER TABLE "records" ADD CONSTRAINT "records_id_resource_pk" PRIMARY KEY("id","resource");
