// Frozen: the service-order workflow, as of 2026-11-24. Never import application code here.
// Statuses brief_needed → submitted → in_progress → delivered → completed, plus revision_requested and cancelled
// ('new' rows become brief_needed); the intake form of each service; the processing days and revision allowance of
// each package (copied onto the service order when it opens); status history, messages, files and deliveries.
import { type Kysely, sql } from 'kysely'

const STATUSES = [
  'brief_needed',
  'submitted',
  'in_progress',
  'delivered',
  'revision_requested',
  'completed',
  'cancelled',
]
const statusList = sql.join(STATUSES.map((status) => sql.lit(status)))

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('services').addColumn('intake_form', 'jsonb').execute()
  await db.schema
    .alterTable('service_packages')
    .addColumn('processing_days', 'integer', (c) =>
      c.notNull().defaultTo(5).check(sql`processing_days between 1 and 365`),
    )
    .addColumn('revisions', 'integer', (c) => c.notNull().defaultTo(1).check(sql`revisions between 0 and 100`))
    .execute()
  // "1-3 business days" → 3, "Onboarding within 5 business days" → 5; anything else keeps the default.
  await sql`update service_packages
    set processing_days = coalesce((regexp_match(processing_time, '(\\d+)\\s*business day'))[1]::int, 5)`.execute(db)

  await sql`alter table service_orders drop constraint if exists service_orders_status_check`.execute(db)
  await sql`update service_orders set status = 'brief_needed' where status = 'new'`.execute(db)
  await db.schema
    .alterTable('service_orders')
    .alterColumn('status', (c) => c.setDefault('brief_needed'))
    .addColumn('service_id', 'text', (c) => c.references('services.id').onDelete('set null'))
    .addColumn('processing_days', 'integer', (c) => c.notNull().defaultTo(5))
    .addColumn('revisions_allowed', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('revisions_used', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('brief', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('brief_submitted_at', 'timestamptz')
    .addColumn('due_at', 'timestamptz')
    .addColumn('assignee_id', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('delivered_at', 'timestamptz')
    .addColumn('completed_at', 'timestamptz')
    .addColumn('cancelled_at', 'timestamptz')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await sql`alter table service_orders add constraint service_orders_status_check check (status in (${statusList}))`.execute(
    db,
  )
  await sql`update service_orders so
    set service_id = p.service_id, processing_days = p.processing_days, revisions_allowed = p.revisions
    from service_packages p where p.id = so.service_package_id`.execute(db)
  await db.schema
    .createIndex('service_orders_status_due_idx')
    .on('service_orders')
    .columns(['status', 'due_at'])
    .execute()

  await db.schema
    .createTable('service_order_events')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('service_order_id', 'uuid', (c) => c.notNull().references('service_orders.id').onDelete('cascade'))
    .addColumn('from_status', 'text')
    .addColumn('to_status', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema
    .createIndex('service_order_events_order_idx')
    .on('service_order_events')
    .columns(['service_order_id', 'created_at'])
    .execute()
  // The history of rows that existed before: where they are now.
  await sql`insert into service_order_events (service_order_id, from_status, to_status, created_at)
    select id, null, status, created_at from service_orders`.execute(db)

  await db.schema
    .createTable('service_order_deliveries')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('service_order_id', 'uuid', (c) => c.notNull().references('service_orders.id').onDelete('cascade'))
    .addColumn('note', 'text', (c) => c.notNull())
    .addColumn('delivered_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema
    .createIndex('service_order_deliveries_order_idx')
    .on('service_order_deliveries')
    .column('service_order_id')
    .execute()

  await db.schema
    .createTable('service_order_messages')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('service_order_id', 'uuid', (c) => c.notNull().references('service_orders.id').onDelete('cascade'))
    .addColumn('author_id', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('from_staff', 'boolean', (c) => c.notNull())
    .addColumn('internal', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('read_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema
    .createIndex('service_order_messages_order_idx')
    .on('service_order_messages')
    .columns(['service_order_id', 'created_at'])
    .execute()

  await db.schema
    .createTable('service_order_files')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('service_order_id', 'uuid', (c) => c.notNull().references('service_orders.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull().check(sql`purpose in ('brief','message','delivery')`))
    .addColumn('storage_key', 'text', (c) => c.notNull().unique())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'integer', (c) => c.notNull())
    .addColumn('uploaded_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('message_id', 'uuid', (c) => c.references('service_order_messages.id').onDelete('cascade'))
    .addColumn('delivery_id', 'uuid', (c) => c.references('service_order_deliveries.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema
    .createIndex('service_order_files_order_idx')
    .on('service_order_files')
    .column('service_order_id')
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'service_order_files',
    'service_order_messages',
    'service_order_deliveries',
    'service_order_events',
  ]) {
    await db.schema.dropTable(table).ifExists().execute()
  }
  await db.schema.dropIndex('service_orders_status_due_idx').ifExists().execute()
  await sql`alter table service_orders drop constraint if exists service_orders_status_check`.execute(db)
  await sql`update service_orders set status = case status
    when 'brief_needed' then 'new' when 'submitted' then 'new' when 'delivered' then 'in_progress'
    when 'revision_requested' then 'in_progress' else status end`.execute(db)
  await db.schema
    .alterTable('service_orders')
    .dropColumn('service_id')
    .dropColumn('processing_days')
    .dropColumn('revisions_allowed')
    .dropColumn('revisions_used')
    .dropColumn('brief')
    .dropColumn('brief_submitted_at')
    .dropColumn('due_at')
    .dropColumn('assignee_id')
    .dropColumn('delivered_at')
    .dropColumn('completed_at')
    .dropColumn('cancelled_at')
    .dropColumn('updated_at')
    .execute()
  await sql`alter table service_orders alter column status set default 'new'`.execute(db)
  await sql`alter table service_orders add constraint service_orders_status_check
    check (status in ('new','in_progress','completed','cancelled'))`.execute(db)
  await db.schema.alterTable('service_packages').dropColumn('processing_days').dropColumn('revisions').execute()
  await db.schema.alterTable('services').dropColumn('intake_form').execute()
}
