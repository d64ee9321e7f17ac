// Two uploads of one creator finishing at the same moment cannot both pass the plan's storage: the finish takes the
// creator's lock (creators row, FOR UPDATE) before it counts what is stored. PostgreSQL only (tests/support/race.ts).
// The holder keeps both uploads' rows locked while the racers start, so each has judged its file and reached the
// count before either can write: without the lock both count 0 and both are stored (docs/concurrency-proofs.md).
import { mkdtemp, readFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import { Upload } from '@tus/server'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect } from 'vitest'
import { storageUsedBytes } from '../../../src-server/creators/limits.ts'
import { finishVideoUpload, startVideoUpload } from '../../../src-server/flows/creator-video-uploads.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { createLocalStorage } from '../../../src-server/storage/storage.ts'
import { createLocalTusFiles } from '../../../src-server/storage/tus-store.ts'
import { creatorWithPlan } from '../../support/creator-uploads.ts'
import { createTestDatabase } from '../../support/db.ts'
import { raceIt, whileHeld } from '../../support/race.ts'

const MP4 = await readFile(path.resolve('public/media/promo-1.mp4'))

let database: DatabaseHandle
beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(async () => {
  await database?.close()
})

describe('finishing uploads under the plan limit', () => {
  raceIt('stores only one of two uploads that finish together when the plan has room for one', async () => {
    const db = database.db
    const dir = await mkdtemp(path.join(os.tmpdir(), 'tus-race-'))
    const tus = createLocalTusFiles(path.join(dir, 'tus'))
    const storage = createLocalStorage(path.join(dir, 'uploads'))
    const overrides = { basic: { storageBytes: Math.floor(MP4.length * 1.5) } }
    const { user } = await creatorWithPlan(db)
    const ids = ['a', 'b'].map((letter) => letter.repeat(32))
    for (const id of ids) {
      await startVideoUpload(
        db,
        { userId: user.id, uploadId: id, sizeBytes: MP4.length, fileName: `${id}.mp4` },
        overrides,
      )
      await (await tus.datastore()).create(new Upload({ id, size: MP4.length, offset: 0 }))
      await (await tus.datastore()).write(Readable.from([MP4]), id, 0)
    }

    const results = await whileHeld(
      db,
      (trx) => sql`select 1 from creator_uploads where id in (${ids[0]}, ${ids[1]}) for update`.execute(trx),
      () =>
        Promise.allSettled(
          ids.map((uploadId) =>
            finishVideoUpload({ db, storage, tus }, { userId: user.id, uploadId, sizeBytes: MP4.length }, overrides),
          ),
        ),
      { waiters: 2 },
    )

    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected'])
    const refusal = results.find((result) => result.status === 'rejected') as PromiseRejectedResult
    expect(String(refusal.reason)).toContain('video storage')
    expect(await storageUsedBytes(db, user.id)).toBe(MP4.length)
    const rows = await db.selectFrom('creator_uploads').select('status').where('user_id', '=', user.id).execute()
    expect(rows).toEqual([{ status: 'stored' }])
  })
})
