// A test server on local file storage that fails, as a bucket that is down does, while `storage.down` is set: the
// outage tests of the upload and download routes (a CV, a resumable video, a lesson's file) switch it off and on.
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { DB } from '../../src-server/kernel/db.ts'
import { StorageFailure } from '../../src-server/kernel/storage-failure.ts'
import { createLocalStorage } from '../../src-server/storage/storage.ts'
import { createTestDatabase } from './db.ts'
import { startTestServer } from './http.ts'

export interface ServerOnFailingStorage {
  db: DB
  baseUrl: string
  /**
   * `down`: while true, storing, sizing and reading a file throw the failure; `readsDown`: reading alone does (the
   * bucket answered the size, then failed the GET); `dir`: where the stored files are.
   */
  storage: { down: boolean; readsDown: boolean; dir: string }
  close(): Promise<void>
}

export async function serverOnFailingStorage(prefix: string, failure: string): Promise<ServerOnFailingStorage> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix))
  const local = createLocalStorage(dir)
  const state = { down: false, readsDown: false, dir }
  const database = await createTestDatabase()
  const server = await startTestServer(database.db, {
    storage: {
      ...local,
      stagingDir: local.stagingDir,
      publicOrigin: local.publicOrigin,
      // As the real adapters fail (decision 0121): a StorageFailure, on every write and read.
      async putFile(key, file, contentType) {
        if (state.down) throw new StorageFailure(failure)
        return local.putFile(key, file, contentType)
      },
      async put(key, data, contentType) {
        if (state.down) throw new StorageFailure(failure)
        return local.put(key, data, contentType)
      },
      async size(key) {
        if (state.down) throw new StorageFailure(failure)
        return local.size(key)
      },
      async read(key, range) {
        if (state.down || state.readsDown) throw new StorageFailure(failure)
        return local.read(key, range)
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
