// Frozen: the access ledger, as of 2026-11-24. Never import application code here.
// Every right a user holds (a course, Premium, a business service) is one row naming its source (an order item, a
// subscription, a staff grant, a free enrolment), when it starts and ends, and whether and why it was revoked.
// Today's enrolments, subscriptions and service orders move into it; the enrolments table goes.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('access_grants')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('course','premium','service')`))
    .addColumn('course_id', 'text', (c) => c.references('courses.id').onDelete('cascade'))
    .addColumn('service_package_id', 'uuid', (c) => c.references('service_packages.id').onDelete('cascade'))
    .addColumn('source', 'text', (c) =>
      c.notNull().check(sql`source in ('order_item','subscription','staff','free_enrolment')`),
    )
    .addColumn('order_id', 'uuid', (c) => c.references('orders.id').onDelete('cascade'))
    .addColumn('order_item_id', 'uuid', (c) => c.references('order_items.id').onDelete('cascade'))
    .addColumn('subscription_id', 'uuid', (c) => c.references('subscriptions.id').onDelete('cascade'))
    .addColumn('granted_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('starts_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    /** Null: no end (a bought course). A subscription's Premium ends with its paid period plus the grace days. */
    .addColumn('ends_at', 'timestamptz')
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('revoked_reason', 'text', (c) =>
      c.check(sql`revoked_reason in ('refund','dispute','cancellation','expiry','lapse')`),
    )
    .addColumn('restored_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // One row per right and source: granting again (a replayed webhook, a second click) finds this key taken.
    .addColumn('grant_key', 'text', (c) =>
      c
        .notNull()
        .generatedAlwaysAs(
          sql`(case kind when 'course' then 'course:' || course_id
                when 'service' then 'service:' || service_package_id::text else 'premium' end)
              || '@' ||
              (case source when 'order_item' then 'order_item:' || order_item_id::text
                when 'subscription' then 'subscription:' || subscription_id::text else source end)`,
        )
        .stored(),
    )
    .addCheckConstraint(
      'access_grants_right_subject_check',
      sql`(kind = 'course' and course_id is not null and service_package_id is null)
        or (kind = 'service' and service_package_id is not null and course_id is null)
        or (kind = 'premium' and course_id is null and service_package_id is null)`,
    )
    .addCheckConstraint(
      'access_grants_source_reference_check',
      sql`(source = 'order_item' and order_item_id is not null and order_id is not null and subscription_id is null)
        or (source = 'subscription' and subscription_id is not null and order_item_id is null)
        or (source in ('staff','free_enrolment') and order_item_id is null and subscription_id is null)`,
    )
    .addCheckConstraint('access_grants_revocation_check', sql`(revoked_at is null) = (revoked_reason is null)`)
    .addUniqueConstraint('access_grants_user_grant_key', ['user_id', 'grant_key'])
    .execute()
  await db.schema.createIndex('access_grants_user_kind_idx').on('access_grants').columns(['user_id', 'kind']).execute()
  await db.schema.createIndex('access_grants_course_idx').on('access_grants').column('course_id').execute()
  await db.schema.createIndex('access_grants_order_idx').on('access_grants').column('order_id').execute()
  await db.schema.createIndex('access_grants_order_item_idx').on('access_grants').column('order_item_id').execute()
  await db.schema.createIndex('access_grants_subscription_idx').on('access_grants').column('subscription_id').execute()

  // Enrolments: from their order's course line; one whose order is gone (or never existed) counts as a staff grant.
  await sql`
    insert into access_grants (user_id, kind, course_id, source, order_id, order_item_id, starts_at, created_at)
    select e.user_id, 'course', e.course_id, case when oi.id is null then 'staff' else 'order_item' end,
           oi.order_id, oi.id, e.enrolled_at, e.enrolled_at
    from enrolments e
    left join lateral (
      select i.id, i.order_id from order_items i
      where i.order_id = e.order_id and i.kind = 'course' and i.course_id = e.course_id
      limit 1
    ) oi on true
    on conflict do nothing`.execute(db)

  // Premium: a manual subscription ran until renews_at; a Stripe one until Stripe said it ended (its next event sets
  // the end). A past-due or cancelled one gave no Premium, so its grant is revoked.
  await sql`
    insert into access_grants
      (user_id, kind, source, subscription_id, starts_at, ends_at, revoked_at, revoked_reason, created_at)
    select s.user_id, 'premium', 'subscription', s.id, s.created_at,
           case when s.stripe_subscription_id is null then s.renews_at end,
           case when s.status in ('past_due','cancelled') then s.updated_at end,
           case s.status when 'past_due' then 'lapse' when 'cancelled' then 'cancellation' end,
           s.created_at
    from subscriptions s
    on conflict do nothing`.execute(db)

  // Service orders: the right to the package bought, from its order line; a cancelled one is revoked.
  await sql`
    insert into access_grants
      (user_id, kind, service_package_id, source, order_id, order_item_id, starts_at, revoked_at,
       revoked_reason, created_at)
    select so.user_id, 'service', so.service_package_id, case when oi.id is null then 'staff' else 'order_item' end,
           oi.order_id, oi.id, so.created_at,
           case when so.status = 'cancelled' then so.created_at end,
           case when so.status = 'cancelled' then 'cancellation' end,
           so.created_at
    from service_orders so
    left join lateral (
      select i.id, i.order_id from order_items i
      where i.order_id = so.order_id and i.kind = 'service_package' and i.service_package_id = so.service_package_id
      limit 1
    ) oi on true
    where so.service_package_id is not null
    on conflict do nothing`.execute(db)

  await db.schema.dropTable('enrolments').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('enrolments')
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('course_id', 'text', (c) => c.notNull().references('courses.id').onDelete('cascade'))
    .addColumn('order_id', 'uuid', (c) => c.references('orders.id').onDelete('set null'))
    .addColumn('enrolled_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('enrolments_pkey', ['user_id', 'course_id'])
    .execute()
  await sql`
    insert into enrolments (user_id, course_id, order_id, enrolled_at)
    select distinct on (user_id, course_id) user_id, course_id, order_id, starts_at
    from access_grants where kind = 'course' and revoked_at is null
    order by user_id, course_id, starts_at`.execute(db)
  await db.schema.dropTable('access_grants').execute()
}
