-- A subscription can name the plan that takes over when it ends at its period's end (a paid plan moving
-- to Free keeps what was paid for until then). Existing rows name none.
ALTER TABLE "subscriptions" ADD COLUMN "next_plan_id" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_next_plan_id_plans_id_fk" FOREIGN KEY ("next_plan_id") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;