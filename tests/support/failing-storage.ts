// A test server on local file storage whose putFile fails, as a bucket that is down does, while `storage.down` is set:
// the outage tests of the upload routes (a CV, a resumable video) switch storage off and on again.
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { DB } from '../../src-server/kernel/db.ts'
import { createLocalStorage } from '../../src-server/storage/storage.ts'
import { createTestDatabase } from './db.ts'
import { startTestServer } from './http.ts'

export interface ServerOnFailingStorage {
  db: DB
  baseUrl: string
  /** `down`: while true, putFile throws the failure; `dir`: where the stored files are. */
  storage: { down: boolean; dir: string }
  close(): Promise<void>
}

export async function serverOnFailingStorage(prefix: string, failure: string): Promise<ServerOnFailingStorage> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix))
  const local = createLocalStorage(dir)
  const state = { down: false, dir }
  const database = await createTestDatabase()
  const server = await startTestServer(database.db, {
    storage: {
      ...local,
      stagingDir: local.stagingDir,
      publicOrigin: local.publicOrigin,
      async putFile(key, file, contentType) {
        if (state.down) throw new Error(failure)
        return local.putFile(key, file, contentType)
      },
    },
  })
  return {
    db: database.db,
    baseUrl: server.baseUrl,
    storage: state,
    async close() {
      await server.stop()
      await database.close()
      await rm(dir, { recursive: true, force: true })
    },
  }
}
