// A fresh, migrated and seeded database for one test file: PGlite or PostgreSQL, as the project says.
import { randomBytes } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { inject } from 'vitest'
import { type DatabaseHandle, openDatabase } from '../../src-server/kernel/db.ts'
import { adminQuery, databaseUrlFor, TEST_DB_PREFIX } from './postgres-admin.ts'
import './provided.ts'
import { openTestPglite } from './test-pglite.ts'

/** A test file's database; `url` is set on PostgreSQL (for a second client such as the job queue). */
export type TestDatabase = DatabaseHandle & { url?: string }

export async function createTestDatabase(): Promise<TestDatabase> {
  const config = inject('testDb')
  if (config.kind === 'pglite') {
    const dump = await readFile(config.templateDumpPath)
    return openTestPglite({ loadDataDir: new Blob([dump]) })
  }
  const name = `${TEST_DB_PREFIX}${randomBytes(6).toString('hex')}`
  await adminQuery(config.adminUrl, `create database ${name} template ${config.templateName}`)
  const url = databaseUrlFor(config.adminUrl, name)
  const handle = await openDatabase({ databaseUrl: url, poolSize: 5 })
  return {
    ...handle,
    url,
    async close() {
      await handle.close()
      await adminQuery(config.adminUrl, `drop database if exists ${name} with (force)`)
    },
  }
}
