-- Deliveries of a patient's records to a caregiver's device become one row per caregiver, resource and
-- UTC day that counts them, so reading can no longer push a caregiver's changes out of the patient's
-- activity log. The delivery rows of one day fold into its newest, which keeps their summed count (a row
-- whose caregiver's account is gone folds only with rows of the same name); writes stay as they are.
ALTER TABLE "care_activity" ADD COLUMN "day" date;--> statement-breakpoint
UPDATE "care_activity" SET "day" = ("at" AT TIME ZONE 'UTC')::date WHERE "kind" = 'delivery';--> statement-breakpoint
UPDATE "care_activity" AS "kept" SET "count" = "folded"."total"
FROM (
  SELECT "id",
    sum("count") OVER "same_line" AS "total",
    row_number() OVER ("same_line" ORDER BY "at" DESC, "id" DESC) AS "rank"
  FROM "care_activity"
  WHERE "kind" = 'delivery'
  WINDOW "same_line" AS (
    PARTITION BY "patient_id", "actor_user_id", "resource", "day",
      CASE WHEN "actor_user_id" IS NULL THEN "actor_name" END
  )
) AS "folded"
WHERE "kept"."id" = "folded"."id" AND "folded"."rank" = 1;--> statement-breakpoint
DELETE FROM "care_activity" WHERE "id" IN (
  SELECT "id" FROM (
    SELECT "id", row_number() OVER (
      PARTITION BY "patient_id", "actor_user_id", "resource", "day",
        CASE WHEN "actor_user_id" IS NULL THEN "actor_name" END
      ORDER BY "at" DESC, "id" DESC
    ) AS "rank"
    FROM "care_activity"
    WHERE "kind" = 'delivery'
  ) AS "ranked"
  WHERE "ranked"."rank" > 1
);--> statement-breakpoint
CREATE UNIQUE INDEX "care_activity_delivery_day_unique" ON "care_activity" USING btree ("patient_id","actor_user_id","resource","day") WHERE "care_activity"."kind" = 'delivery';
