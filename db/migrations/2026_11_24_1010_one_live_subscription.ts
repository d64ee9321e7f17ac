// Frozen: subscriptions a member runs alone, as of 2026-11-24. Never import application code here.
// - At most one plan in a cart, and at most one live (trialing, active or past-due) subscription per user.
// - A subscription keeps what Stripe last said (status, period, cancellation, price) and the facts its invoices
//   proved (paid through, failed through), so events applied in any order reach the same state.
// - Paid subscription invoices are recorded, for the order history.
// - Reminders and renewal orders remember what they were sent for, so each goes once.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  // Carts holding several plans keep the newest.
  await sql`
    delete from cart_items c where c.kind = 'plan' and exists (
      select 1 from cart_items n where n.user_id = c.user_id and n.kind = 'plan'
        and (n.added_at, n.id) > (c.added_at, c.id))`.execute(db)
  await db.schema
    .createIndex('cart_items_one_plan_per_user')
    .on('cart_items')
    .column('user_id')
    .unique()
    .where(sql.ref('kind'), '=', 'plan')
    .execute()

  await db.schema
    .alterTable('subscriptions')
    .addColumn('stripe_customer_id', 'text')
    .addColumn('amount_minor', 'integer')
    .addColumn('currency', 'text')
    .addColumn('trial_ends_at', 'timestamptz')
    .addColumn('cancel_at_period_end', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('cancel_reason', 'text')
    .addColumn('ended_at', 'timestamptz')
    .addColumn('end_reason', 'text', (c) => c.check(sql`end_reason in ('cancellation','lapse')`))
    .addColumn('paid_through', 'timestamptz')
    .addColumn('failed_through', 'timestamptz')
    .addColumn('stripe_status', 'text')
    .addColumn('stripe_snapshot_at', 'timestamptz')
    .addColumn('stripe_period_end', 'timestamptz')
    .addColumn('payment_issue_invoice', 'text')
    .addColumn('trial_reminder_sent_at', 'timestamptz')
    .addColumn('renewal_reminder_for', 'timestamptz')
    .addColumn('renewal_order_id', 'uuid', (c) => c.references('orders.id').onDelete('set null'))
    .addColumn('duplicate_of', 'uuid', (c) => c.references('subscriptions.id').onDelete('set null'))
    .execute()
  // Plans bought twice before this rule: the newest stays live, older ones are marked for staff to cancel.
  await sql`
    update subscriptions s set duplicate_of = (
      select n.id from subscriptions n where n.user_id = s.user_id and n.status in ('trialing','active','past_due')
      order by n.created_at desc, n.id desc limit 1)
    where s.status in ('trialing','active','past_due') and exists (
      select 1 from subscriptions n where n.user_id = s.user_id and n.status in ('trialing','active','past_due')
        and (n.created_at, n.id) > (s.created_at, s.id))`.execute(db)
  await sql`update subscriptions set trial_ends_at = renews_at where status = 'trialing'`.execute(db)
  await db.schema
    .createIndex('subscriptions_one_live_per_user')
    .on('subscriptions')
    .column('user_id')
    .unique()
    .where(sql<boolean>`status in ('trialing','active','past_due') and duplicate_of is null`)
    .execute()

  await db.schema
    .createTable('subscription_invoices')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('subscription_id', 'uuid', (c) => c.notNull().references('subscriptions.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    /** Stripe's invoice id; null for a manual renewal (its order is the record). */
    .addColumn('stripe_invoice_id', 'text', (c) => c.unique())
    .addColumn('order_id', 'uuid', (c) => c.unique().references('orders.id').onDelete('set null'))
    .addColumn('amount_minor', 'integer', (c) => c.notNull().check(sql`amount_minor >= 0`))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('period_start', 'timestamptz')
    .addColumn('period_end', 'timestamptz')
    .addColumn('billing_reason', 'text')
    .addColumn('paid_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema
    .createIndex('subscription_invoices_user_idx')
    .on('subscription_invoices')
    .columns(['user_id', 'paid_at'])
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('subscription_invoices').execute()
  await db.schema.dropIndex('subscriptions_one_live_per_user').execute()
  await db.schema
    .alterTable('subscriptions')
    .dropColumn('duplicate_of')
    .dropColumn('renewal_order_id')
    .dropColumn('renewal_reminder_for')
    .dropColumn('trial_reminder_sent_at')
    .dropColumn('payment_issue_invoice')
    .dropColumn('stripe_snapshot_at')
    .dropColumn('stripe_period_end')
    .dropColumn('stripe_status')
    .dropColumn('failed_through')
    .dropColumn('paid_through')
    .dropColumn('end_reason')
    .dropColumn('ended_at')
    .dropColumn('cancel_reason')
    .dropColumn('cancel_at_period_end')
    .dropColumn('trial_ends_at')
    .dropColumn('currency')
    .dropColumn('amount_minor')
    .dropColumn('stripe_customer_id')
    .execute()
  await db.schema.dropIndex('cart_items_one_plan_per_user').execute()
}
