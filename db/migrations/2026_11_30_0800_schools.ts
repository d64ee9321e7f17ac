// Frozen: a creator's school (name, slug, public page /s/{slug}), its members with roles and their e-mailed
// invitations (issue 36). Existing creators get a school named after their instructor profile. Never import
// application code here.
import { type Kysely, sql } from 'kysely'

const now = sql`now()`

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('schools')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('owner_id', 'uuid', (c) => c.notNull().unique().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull().check(sql`char_length(name) between 1 and 120`))
    .addColumn('slug', 'text', (c) => c.notNull().unique().check(sql`slug ~ '^[a-z0-9]([a-z0-9-]{0,58}[a-z0-9])?$'`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute()

  await db.schema
    .createTable('school_members')
    .addColumn('school_id', 'uuid', (c) => c.notNull().references('schools.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('instructor', 'finance', 'support')`))
    .addColumn('added_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addPrimaryKeyConstraint('school_members_pk', ['school_id', 'user_id'])
    .execute()
  await db.schema.createIndex('school_members_user_idx').on('school_members').column('user_id').execute()

  await db.schema
    .createTable('school_invites')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('school_id', 'uuid', (c) => c.notNull().references('schools.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('instructor', 'finance', 'support')`))
    .addColumn('token_hash', 'bytea', (c) => c.notNull().unique())
    .addColumn('invited_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('accepted_at', 'timestamptz')
    .addColumn('accepted_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute()
  await db.schema.createIndex('school_invites_school_idx').on('school_invites').column('school_id').execute()

  // Every existing creator gets a school named and addressed after their instructor profile (slugs are unique there).
  await sql`insert into schools (owner_id, name, slug)
    select c.user_id, left(i.name, 120), i.slug from creators c join instructors i on i.id = c.instructor_id
    where i.slug ~ '^[a-z0-9]([a-z0-9-]{0,58}[a-z0-9])?$'
    on conflict do nothing`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['school_invites', 'school_members', 'schools']) {
    await db.schema.dropTable(table).execute()
  }
}
