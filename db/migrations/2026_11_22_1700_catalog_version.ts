// Frozen: the catalogue's change counter as of 2026-11-22. Never import application code here.
// A counter bumped by every statement that changes courses, whoever runs it (admin, seed, psql): the catalogue
// caches its unsearched facet counts until the counter moves.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('catalog_version')
    .addColumn('id', 'boolean', (c) => c.primaryKey().defaultTo(true).check(sql`id`))
    .addColumn('version', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute()
  await sql`insert into catalog_version default values`.execute(db)
  await sql`
    create function bump_catalog_version() returns trigger language plpgsql as $$
    begin
      update catalog_version set version = version + 1;
      return null;
    end $$`.execute(db)
  await sql`
    create trigger courses_catalog_version after insert or update or delete or truncate on courses
    for each statement execute function bump_catalog_version()`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists courses_catalog_version on courses`.execute(db)
  await sql`drop function if exists bump_catalog_version()`.execute(db)
  await db.schema.dropTable('catalog_version').ifExists().execute()
}
