// A creator's resumable video upload whose last PATCH arrives while storage is failing (the bucket down, the disk
// refusing): the PATCH answers 503 with Retry-After and our storage sentence, and nothing is stored or counted. The tus
// client then retries as it does after any 5xx, with a HEAD: that HEAD must not say "complete" for bytes that never reached storage (the
// browser would take the upload for done and never send it again); it finishes the upload once storage is back.
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { storageUsedBytes } from '../../../src-server/creators/limits.ts'
import { STORAGE_UNAVAILABLE_MESSAGE } from '../../../src-shared/errors.ts'
import { creatorWithPlan, tusClient, uploadIdOf } from '../../support/creator-uploads.ts'
import { type ServerOnFailingStorage, serverOnFailingStorage } from '../../support/failing-storage.ts'

const MP4 = await readFile(path.resolve('public/media/promo-1.mp4'))

let site: ServerOnFailingStorage

beforeAll(async () => {
  site = await serverOnFailingStorage('tus-outage-', 'S3 PUT failed: 503 SlowDown')
})
afterAll(() => site?.close())

const rowOf = (id: string) =>
  site.db.selectFrom('creator_uploads').selectAll().where('id', '=', id).executeTakeFirstOrThrow()

describe('storage failing as a tus upload finishes', () => {
  it('answers 503, does not report the upload complete while it is not stored, and stores it once storage is back', async () => {
    const { user, cookie } = await creatorWithPlan(site.db)
    const client = tusClient(site.baseUrl, cookie)
    const created = await client.create(MP4.length, 'lesson.mp4')
    expect(created.status).toBe(201)
    const location = created.headers.get('location') as string
    const id = uploadIdOf(location)

    site.storage.down = true
    try {
      const last = await client.patch(location, 0, MP4)
      expect(last.status).toBe(503)
      expect(last.headers.get('retry-after')).toBe('5')
      expect(await last.text()).toBe(STORAGE_UNAVAILABLE_MESSAGE)
      expect(await rowOf(id)).toMatchObject({ status: 'uploading', storage_key: null })
      expect(await storageUsedBytes(site.db, user.id)).toBe(0)

      // The client's retry: still failing, so not "complete" (a 5xx it retries again later).
      const retry = await client.head(location)
      expect(retry.status).toBe(503)
      expect(retry.headers.get('retry-after')).toBe('5')
      expect(retry.headers.get('upload-offset')).toBeNull()
      expect((await rowOf(id)).status).toBe('uploading')
    } finally {
      site.storage.down = false
    }

    // Storage is back: the next retry stores the video and reports it complete.
    const head = await client.head(location)
    expect(head.status).toBe(200)
    expect(head.headers.get('upload-offset')).toBe(String(MP4.length))
    const row = await rowOf(id)
    expect(row).toMatchObject({ status: 'stored', content_type: 'video/mp4' })
    expect(await readFile(path.join(site.storage.dir, row.storage_key as string))).toEqual(MP4)
    expect(await storageUsedBytes(site.db, user.id)).toBe(MP4.length)
  })
})
