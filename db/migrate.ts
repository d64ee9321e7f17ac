// Applies db/migrations in name order. Used at start-up, by `npm run db:migrate` and by the tests.
// Migrations are listed statically (db/migrations/index.ts) so the same code runs under tsx, Vitest and
// the compiled server alike.
import type { Kysely } from 'kysely'
import { Migrator } from 'kysely/migration'
import { migrations } from './migrations/index.ts'

// biome-ignore lint/suspicious/noExplicitAny: migrations are typed against Kysely<any> by design
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
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
