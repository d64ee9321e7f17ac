// A fresh, migrated and seeded database for one test file: PGlite or PostgreSQL, as the project says.
import { randomBytes } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { inject } from 'vitest'
import { type DatabaseHandle, openDatabase, openPglite } from '../../src-server/db.ts'
import { adminQuery, databaseUrlFor, TEST_DB_PREFIX } from './postgres-admin.ts'
import './provided.ts'

export async function createTestDatabase(): Promise<DatabaseHandle> {
  const config = inject('testDb')
  if (config.kind === 'pglite') {
    const dump = await readFile(config.templateDumpPath)
    return openPglite({ loadDataDir: new Blob([dump]) })
  }
  const name = `${TEST_DB_PREFIX}${randomBytes(6).toString('hex')}`
  await adminQuery(config.adminUrl, `create database ${name} template ${config.templateName}`)
  const handle = await openDatabase({ databaseUrl: databaseUrlFor(config.adminUrl, name), poolSize: 5 })
  return {
    ...handle,
    async close() {
      await handle.close()
      await adminQuery(config.adminUrl, `drop database if exists ${name} with (force)`)
    },
  }
}
