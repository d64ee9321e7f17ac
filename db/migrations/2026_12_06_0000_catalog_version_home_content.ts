// Frozen: the catalogue's change counter also moves with the rest of what the home page shows (decision 0082): the
// services and their packages (the featured services' cards and "From" prices), the testimonials and the promo
// videos. The home page's reads are then kept with the catalogue snapshot until catalog_version moves, so every
// statement that changes these tables, whoever runs it (the seed, psql), moves it. Nothing in the app writes them on
// a hot path. Never import application code here.
import { type Kysely, sql } from 'kysely'

const TABLES = ['services', 'service_packages', 'testimonials', 'promo_videos'] as const

export async function up(db: Kysely<any>): Promise<void> {
  for (const table of TABLES) {
    await sql`
      create trigger ${sql.raw(`${table}_catalog_version`)} after insert or update or delete or truncate
      on ${sql.table(table)} for each statement execute function bump_catalog_version()`.execute(db)
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of TABLES) {
    await sql`drop trigger if exists ${sql.raw(`${table}_catalog_version`)} on ${sql.table(table)}`.execute(db)
  }
}
