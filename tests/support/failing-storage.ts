// Local file storage whose putFile fails, as a bucket that is down does, while `down` is set: the outage tests of the
// upload routes (a CV, a resumable video) start a server on it and switch storage off and on again.
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { createLocalStorage, type FileStorage } from '../../src-server/storage/storage.ts'

export interface FailingStorage {
  storage: FileStorage
  /** Where the stored files are. */
  dir: string
  /** While true, putFile throws `failure`. */
  down: boolean
  remove(): Promise<void>
}

export async function failingStorage(prefix: string, failure: string): Promise<FailingStorage> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix))
  const local = createLocalStorage(dir)
  const handle: FailingStorage = {
    dir,
    down: false,
    storage: {
      ...local,
      stagingDir: local.stagingDir,
      publicOrigin: local.publicOrigin,
      async putFile(key, file, contentType) {
        if (handle.down) throw new Error(failure)
        return local.putFile(key, file, contentType)
      },
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  }
  return handle
}
