// Frozen: the admin area's audit log, team invitations and its indexes as of 2026-11-22. Never import application code here.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('actor_id', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    // Kept as text too, so the log still says who acted after an account is deleted.
    .addColumn('actor_email', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('entity_type', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'text', (c) => c.notNull())
    .addColumn('before', 'jsonb')
    .addColumn('after', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema.createIndex('audit_log_created_idx').on('audit_log').column('created_at desc').execute()
  await db.schema.createIndex('audit_log_entity_idx').on('audit_log').columns(['entity_type', 'entity_id']).execute()

  // The admin course list pages newest first.
  await db.schema.createIndex('courses_created_idx').on('courses').columns(['created_at desc', 'id']).execute()

  // "Did anyone buy this course?" (delete or archive) and the dashboard's paid orders per day.
  await db.schema.createIndex('order_items_course_idx').on('order_items').column('course_id').execute()
  await db.schema.createIndex('enrolments_course_idx').on('enrolments').column('course_id').execute()
  await sql`create index orders_paid_idx on orders (paid_at) where status = 'paid'`.execute(db)

  await db.schema
    .createTable('team_invitations')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('first_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('last_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('viewer','editor','admin')`))
    // SHA-256 of the token in the e-mailed link; the token itself is never stored.
    .addColumn('token_hash', 'bytea', (c) => c.notNull().unique())
    .addColumn('invited_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('accepted_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await sql`create index team_invitations_email_idx on team_invitations (lower(email))`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('team_invitations').ifExists().execute()
  await db.schema.dropIndex('courses_created_idx').ifExists().execute()
  await db.schema.dropIndex('order_items_course_idx').ifExists().execute()
  await db.schema.dropIndex('enrolments_course_idx').ifExists().execute()
  await db.schema.dropIndex('orders_paid_idx').ifExists().execute()
  await db.schema.dropTable('audit_log').ifExists().execute()
}
