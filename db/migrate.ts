// Applies db/migrations in name order. Used at start-up, by `npm run db:migrate` and by the tests.
// Migrations are listed statically (db/migrations/index.ts) so the same code runs under tsx, Vitest and
// the compiled server alike.
import { type Kysely, sql } from 'kysely'
import { Migrator } from 'kysely/migration'
import { migrations } from './migrations/index.ts'

// biome-ignore lint/suspicious/noExplicitAny: migrations are typed against Kysely<any> by design
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  // Every restart lands here: one read answers "nothing to do" instead of the Migrator's catalogue introspection,
  // lock table and locked transaction (about a second of a restart on a busy machine).
  if (await exactlyApplied(db)) return []
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } })
  const { error, results } = await migrator.migrateToLatest()
  const failed = results?.find((result) => result.status === 'Error')
  if (error || failed) {
    const name = failed ? ` (${failed.migrationName})` : ''
    throw new Error(`Migration failed${name}: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    })
  }
  return (results ?? []).map((result) => result.migrationName)
}

/**
 * True when the recorded migrations are exactly the known ones. Anything else (no table yet, one missing, one this
 * code does not know) goes to the Migrator, which applies or refuses as it always did.
 */
// biome-ignore lint/suspicious/noExplicitAny: as above
async function exactlyApplied(db: Kysely<any>): Promise<boolean> {
  const known = Object.keys(migrations)
  try {
    const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db)
    const recorded = new Set(rows.map((row) => row.name))
    return recorded.size === known.length && known.every((name) => recorded.has(name))
  } catch {
    return false
  }
}
