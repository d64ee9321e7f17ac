// Frozen: a school's own domain (issue 36, decision 0063) — one hostname per school, proved by a TXT record holding
// the verification token, and the school's white-label brand (display name, colour, logo). Never import app code.
import { type Kysely, sql } from 'kysely'

const now = sql`now()`

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('school_domains')
    .addColumn('school_id', 'uuid', (c) => c.primaryKey().references('schools.id').onDelete('cascade'))
    .addColumn('hostname', 'text', (c) =>
      c.notNull().unique().check(sql`hostname = lower(hostname) and char_length(hostname) between 4 and 253`),
    )
    .addColumn('verification_token', 'text', (c) => c.notNull())
    .addColumn('verified_at', 'timestamptz')
    .addColumn('checked_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute()

  await db.schema
    .createTable('school_brands')
    .addColumn('school_id', 'uuid', (c) => c.primaryKey().references('schools.id').onDelete('cascade'))
    .addColumn('display_name', 'text', (c) => c.notNull().check(sql`char_length(display_name) between 1 and 80`))
    .addColumn('brand_color', 'text', (c) => c.notNull().check(sql`brand_color ~ '^#[0-9a-f]{6}$'`))
    .addColumn('logo_url', 'text')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('school_brands').execute()
  await db.schema.dropTable('school_domains').execute()
}
