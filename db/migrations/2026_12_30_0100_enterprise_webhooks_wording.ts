// Frozen: /pricing never named webhooks, which only Enterprise includes (creator-plans.ts, decision 0061): its card
// said "Full API access and single sign-on" and its comparison row "API access and single sign-on". The seed now
// says "Full API access, webhooks and single sign-on" and "API access, webhooks and single sign-on" (2026-12-30,
// decision 0141); a database seeded before gets the same words, unless staff changed them (the seed never overwrites).
// Never import app code.
import { type Kysely, sql } from 'kysely'

const CARD = { before: 'Full API access and single sign-on', after: 'Full API access, webhooks and single sign-on' }
const ROW = { before: 'API access and single sign-on', after: 'API access, webhooks and single sign-on' }

/** The Enterprise card's feature `from` becomes `to`, in its place; other features and plans are left alone. */
async function rewordCard(db: Kysely<any>, from: string, to: string) {
  await sql`
    update plans
    set features = (
      select jsonb_agg(case when feature = to_jsonb(${from}::text) then to_jsonb(${to}::text) else feature end
                       order by place)
      from jsonb_array_elements(plans.features) with ordinality as listed(feature, place))
    where id = 'enterprise' and features @> jsonb_build_array(${from}::text)`.execute(db)
}

/** The comparison row named `from` is renamed `to`, unless a row of that name is there already. */
async function renameRow(db: Kysely<any>, from: string, to: string) {
  await sql`
    update plan_comparison_features set name = ${to}
    where name = ${from} and not exists (select 1 from plan_comparison_features where name = ${to})`.execute(db)
}

export async function up(db: Kysely<any>): Promise<void> {
  await rewordCard(db, CARD.before, CARD.after)
  await renameRow(db, ROW.before, ROW.after)
}

export async function down(db: Kysely<any>): Promise<void> {
  await rewordCard(db, CARD.after, CARD.before)
  await renameRow(db, ROW.after, ROW.before)
}
