-- The check-ins become synced records (resource check_ins): each stored day moves into `records`, with a
-- version from the one sequence, its fields stamped as changed when the row last was, and the patient's
-- user as its author; then 0008's table goes.
INSERT INTO "records" ("id", "resource", "patient_id", "version", "data", "field_changed_at", "created_by", "created_at", "updated_at")
SELECT c."id", 'check_ins', c."patient_id", nextval('change_version_seq'),
  jsonb_build_object('day', to_char(c."day", 'YYYY-MM-DD'), 'status', c."status", 'answers', c."answers"),
  jsonb_build_object(
    'day', (extract(epoch from c."updated_at") * 1000)::bigint,
    'status', (extract(epoch from c."updated_at") * 1000)::bigint,
    'answers', (extract(epoch from c."updated_at") * 1000)::bigint
  ),
  p."user_id", c."created_at", c."updated_at"
FROM "check_ins" c JOIN "patients" p ON p."id" = c."patient_id"
ORDER BY c."updated_at", c."id"
ON CONFLICT ("id") DO NOTHING;
--> statement-breakpoint
DROP TABLE "check_ins" CASCADE;
