// A restart on an up-to-date database answers "nothing to migrate" from one read, without the Migrator (its
// introspection and lock cost about a second of a restart); any other state still goes through the Migrator.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrateToLatest } from '../../../db/migrate.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'

let database: TestDatabase
beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(async () => {
  await database.close()
})

const lockTableExists = async () =>
  (
    await sql<{
      n: number
    }>`select count(*)::int as n from pg_tables where tablename = 'kysely_migration_lock'`.execute(database.db)
  ).rows[0]!.n === 1

describe('migrateToLatest on restart', () => {
  it('does not run the Migrator when every known migration is recorded', async () => {
    await sql`drop table kysely_migration_lock`.execute(database.db)
    expect(await migrateToLatest(database.db)).toEqual([])
    // The Migrator would have created its lock table again.
    expect(await lockTableExists()).toBe(false)
  })

  it('still refuses a database migrated by newer code (a migration this code does not know)', async () => {
    await sql`insert into kysely_migration (name, timestamp) values ('2999_01_01_0000_future', now())`.execute(
      database.db,
    )
    await expect(migrateToLatest(database.db)).rejects.toThrow(/2999_01_01_0000_future/)
    await sql`delete from kysely_migration where name = '2999_01_01_0000_future'`.execute(database.db)
  })
})
