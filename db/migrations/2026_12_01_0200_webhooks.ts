// Frozen: outgoing webhooks (issue 36, decision 0061). A school's endpoints (URL, subscribed event types, a Standard
// Webhooks secret and, for 24 hours after a rotation, the previous one) and their deliveries: one row per event and
// endpoint, written in the transaction of the change it reports and sent by the job queue with retries for 3 days.
// Never import application code here.
import { type Kysely, sql } from 'kysely'

const now = sql`now()`

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('school_id', 'uuid', (c) => c.notNull().references('schools.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull().check(sql`char_length(url) between 8 and 2000`))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo('').check(sql`char_length(description) <= 200`))
    .addColumn('event_types', sql`text[]`, (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('previous_secret', 'text')
    .addColumn('previous_secret_expires_at', 'timestamptz')
    .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('disabled_reason', 'text')
    .addColumn('failing_since', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute()
  await db.schema.createIndex('webhook_endpoints_school_idx').on('webhook_endpoints').column('school_id').execute()

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('endpoint_id', 'uuid', (c) => c.notNull().references('webhook_endpoints.id').onDelete('cascade'))
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('payload', 'jsonb', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz')
    .addColumn('job_id', 'text')
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('last_attempt_at', 'timestamptz')
    .addColumn('delivered_at', 'timestamptz')
    .addColumn('failed_at', 'timestamptz')
    .addColumn('replay_of', 'uuid', (c) => c.references('webhook_deliveries.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute()
  await db.schema
    .createIndex('webhook_deliveries_endpoint_idx')
    .on('webhook_deliveries')
    .columns(['endpoint_id', 'created_at'])
    .execute()
  // The relay's question: which deliveries are due and not yet on the queue.
  await sql`create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at)
    where delivered_at is null and failed_at is null and job_id is null`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webhook_deliveries').execute()
  await db.schema.dropTable('webhook_endpoints').execute()
}
