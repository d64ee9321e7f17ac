// Frozen: the catalogue's change counter also moves with categories (decision 0030). Never import application code.
// The catalogue page holds its categories and facet groups per node until catalog_version moves; a renamed,
// reordered, added or removed category must move it as a course change does.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create trigger categories_catalog_version after insert or update or delete or truncate on categories
    for each statement execute function bump_catalog_version()`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists categories_catalog_version on categories`.execute(db)
}
