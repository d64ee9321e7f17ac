// Frozen: coupons on membership plans and gifted plans (issue 32, decision 0050). A plan coupon says for how long
// it discounts the plan, as Stripe's coupon durations do: the first payment (`once`), N months (`repeating`), or
// every renewal (`forever`). A gifted plan is a prepaid term of 1, 3 or 12 months. Never import application code here.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table coupons drop constraint coupons_applies_to_check`.execute(db)
  await sql`alter table coupons add constraint coupons_applies_to_check
    check (applies_to in ('everything','courses','creator','service_packages','plans'))`.execute(db)
  await db.schema
    .alterTable('coupons')
    .addColumn('plan_duration', 'text', (c) => c.check(sql`plan_duration in ('once','repeating','forever')`))
    .addColumn('plan_duration_months', 'integer', (c) => c.check(sql`plan_duration_months between 1 and 36`))
    .execute()
  await sql`alter table coupons add constraint coupons_plan_duration
    check ((applies_to = 'plans') = (plan_duration is not null)
      and (plan_duration = 'repeating') = (plan_duration_months is not null)
      and (applies_to <> 'plans' or creator_id is null))`.execute(db)

  await db.schema
    .alterTable('gifts')
    .addColumn('plan_months', 'integer', (c) => c.check(sql`plan_months in (1, 3, 12)`))
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('gifts').dropColumn('plan_months').execute()
  await sql`alter table coupons drop constraint coupons_plan_duration`.execute(db)
  await db.schema.alterTable('coupons').dropColumn('plan_duration').dropColumn('plan_duration_months').execute()
  await sql`alter table coupons drop constraint coupons_applies_to_check`.execute(db)
  await sql`alter table coupons add constraint coupons_applies_to_check
    check (applies_to in ('everything','courses','creator','service_packages'))`.execute(db)
}
