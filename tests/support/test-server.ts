// One file's fresh database and the real server on it: created before the file's first test, stopped and dropped
// after its last. Read `site.db`, `site.baseUrl` inside tests (they exist once beforeAll has run).
import { afterAll, beforeAll } from 'vitest'
import type { DatabaseHandle } from '../../src-server/kernel/db.ts'
import { createTestDatabase } from './db.ts'
import { startTestServer, type TestServer } from './http.ts'

export function serveForThisFile(options: Parameters<typeof startTestServer>[1] = {}) {
  let database: DatabaseHandle | undefined
  let server: TestServer | undefined
  beforeAll(async () => {
    database = await createTestDatabase()
    server = await startTestServer(database.db, options)
  })
  afterAll(async () => {
    await server?.stop()
    await database?.close()
  })
  const started = () => {
    if (!database || !server) throw new Error('serveForThisFile: read the site inside a test, after beforeAll')
    return { database, server }
  }
  return {
    get db() {
      return started().database.db
    },
    get baseUrl() {
      return started().server.baseUrl
    },
    get uploadsDir() {
      return started().server.uploadsDir
    },
  }
}
