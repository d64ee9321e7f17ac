// Creators' resumable video uploads over the tus protocol on the real server: creation, PATCH in parts, HEAD to
// resume, finish (content judged, length read, bytes stored and counted against the plan), and every refusal.
import { existsSync } from 'node:fs'
import { readdir, readFile } from 'node:fs/promises'
import http from 'node:http'
import path from 'node:path'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { createSession, SESSION_COOKIE } from '../../../src-server/auth/session.ts'
import type { SessionUser } from '../../../src-server/auth/types.ts'
import { storageUsedBytes } from '../../../src-server/creators/limits.ts'
import { claimUpload, releaseLessonUploads } from '../../../src-server/creators/uploads.ts'
import { NO_PLAN_MESSAGE } from '../../../src-server/flows/creator-standing.ts'
import {
  startVideoUpload,
  sweepAbandonedVideoUploads,
  VIDEO_UPLOAD_MESSAGES,
} from '../../../src-server/flows/creator-video-uploads.ts'
import { TUS_CREATE_RULE, TUS_MESSAGES } from '../../../src-server/http/tus-uploads.ts'
import { defaultAppConfig } from '../../../src-server/kernel/config.ts'
import { createCaller } from '../../../src-server/routers/_app.ts'
import { LESSON_VIDEO_PREFIX } from '../../../src-server/storage/keys.ts'
import { createLocalStorage } from '../../../src-server/storage/storage.ts'
import { createLocalTusFiles } from '../../../src-server/storage/tus-store.ts'
import { createContextInner } from '../../../src-server/trpc/context.ts'
import { CREATOR_VIDEO_MAX_BYTES } from '../../../src-shared/creator-plans.ts'
import { creatorWithPlan, tusClient, uploadIdOf } from '../../support/creator-uploads.ts'
import { createSessionToken, createUser } from '../../support/factories.ts'
import { serveForThisFile } from '../../support/test-server.ts'

// A small plan limit: one 110 kB video fits, two do not.
const LIMIT = 200_000
const site = serveForThisFile({ env: { CREATOR_STORAGE_LIMIT_BYTES: LIMIT } })

const MP4 = await readFile(path.resolve('public/media/promo-1.mp4'))
const MP4_SECONDS = 6
const tusDir = () => path.join(site.uploadsDir, '..', 'tus')

/** The studio's procedures with the server's settings and storage. */
async function callerAs(user: SessionUser) {
  const { session } = await createSession(site.db, user.id)
  const config = {
    ...defaultAppConfig,
    creatorLimits: { basic: { storageBytes: LIMIT }, pro: { storageBytes: LIMIT } },
  }
  const storage = createLocalStorage(site.uploadsDir)
  return createCaller(createContextInner({ db: site.db, user, session, config, storage }))
}

const rowOf = (id: string) => site.db.selectFrom('creator_uploads').selectAll().where('id', '=', id).executeTakeFirst()

async function started(client: ReturnType<typeof tusClient>, length = MP4.length, name = 'lesson.mp4') {
  const response = await client.create(length, name)
  expect(response.status, await response.clone().text()).toBe(201)
  const location = response.headers.get('location') as string
  expect(location).toMatch(/^\/api\/uploads\/tus\/[0-9a-f]{32}$/)
  return location
}

/** A PATCH whose connection drops after `sent` of its bytes (the body promised all of them). */
function droppedPatch(baseUrl: string, cookie: string, location: string, offset: number, bytes: Buffer, sent: number) {
  return new Promise<void>((resolve) => {
    const request = http.request(new URL(location, baseUrl), {
      method: 'PATCH',
      headers: {
        'Tus-Resumable': '1.0.0',
        'Upload-Offset': String(offset),
        'Content-Type': 'application/offset+octet-stream',
        'Content-Length': String(bytes.length),
        cookie,
        origin: 'http://storefront.test',
      },
    })
    request.on('error', () => resolve())
    request.on('close', () => resolve())
    request.write(bytes.subarray(0, sent), () => setTimeout(() => request.destroy(), 300))
  })
}

describe('tus video uploads', () => {
  it('creates, takes the bytes in two PATCHes, answers HEAD with the offset, and stores the finished video', async () => {
    const { user, cookie } = await creatorWithPlan(site.db)
    const client = tusClient(site.baseUrl, cookie)
    const location = await started(client, MP4.length, 'My lesson <1>.mp4')
    const id = uploadIdOf(location)
    expect(await rowOf(id)).toMatchObject({ status: 'uploading', user_id: user.id, file_name: 'My lesson _1_.mp4' })

    const half = 50_000
    const first = await client.patch(location, 0, MP4.subarray(0, half))
    expect(first.status).toBe(204)
    expect(first.headers.get('upload-offset')).toBe(String(half))
    const head = await client.head(location)
    expect(head.status).toBe(200)
    expect(head.headers.get('upload-offset')).toBe(String(half))
    expect(head.headers.get('upload-length')).toBe(String(MP4.length))
    // Nothing counts while it is in progress.
    expect(await storageUsedBytes(site.db, user.id)).toBe(0)

    const last = await client.patch(location, half, MP4.subarray(half))
    expect(last.status, await last.clone().text()).toBe(204)
    expect(last.headers.get('upload-offset')).toBe(String(MP4.length))
    expect(last.headers.get('upload-duration-seconds')).toBe(String(MP4_SECONDS))

    const row = await rowOf(id)
    expect(row).toMatchObject({
      status: 'stored',
      duration_seconds: MP4_SECONDS,
      content_type: 'video/mp4',
      lesson_id: null,
    })
    expect(Number(row?.size_bytes)).toBe(MP4.length)
    expect(row?.finished_at).toBeInstanceOf(Date)
    expect(row?.storage_key?.startsWith(LESSON_VIDEO_PREFIX)).toBe(true)
    // The bytes moved into storage, unchanged; the tus copy is gone.
    expect(await readFile(path.join(site.uploadsDir, row?.storage_key as string))).toEqual(MP4)
    expect(existsSync(path.join(tusDir(), id))).toBe(false)
    expect(await storageUsedBytes(site.db, user.id)).toBe(MP4.length)

    // A client resuming after a reload learns it is complete.
    const again = await client.head(location)
    expect(again.status).toBe(200)
    expect(again.headers.get('upload-offset')).toBe(String(MP4.length))

    // The studio reads its length and lists it against the plan.
    const caller = await callerAs(user)
    expect(await caller.creatorUploads.get({ uploadId: id })).toEqual({
      uploadId: id,
      status: 'stored',
      fileName: 'My lesson _1_.mp4',
      sizeBytes: MP4.length,
      durationSeconds: MP4_SECONDS,
      // Stored with its renditions queued, in the same transaction (decision 0064).
      transcode: { state: 'processing', percent: 0 },
    })
    const list = await caller.creatorUploads.list()
    expect(list.uploads.map((upload) => upload.uploadId)).toEqual([id])
    expect(list.storage).toMatchObject({ usedBytes: MP4.length, limitBytes: LIMIT, hasPlan: true })
  })

  it('resumes after a dropped connection from the offset HEAD reports', async () => {
    const { user, cookie } = await creatorWithPlan(site.db)
    const client = tusClient(site.baseUrl, cookie)
    const location = await started(client)
    await droppedPatch(site.baseUrl, cookie, location, 0, MP4, 40_000)
    const head = await client.head(location)
    const offset = Number(head.headers.get('upload-offset'))
    expect(offset).toBeGreaterThan(0)
    expect(offset).toBeLessThanOrEqual(40_000)
    const rest = await client.patch(location, offset, MP4.subarray(offset))
    expect(rest.status, await rest.clone().text()).toBe(204)
    const row = await rowOf(uploadIdOf(location))
    expect(row?.status).toBe('stored')
    expect(await readFile(path.join(site.uploadsDir, row?.storage_key as string))).toEqual(MP4)
    expect(await storageUsedBytes(site.db, user.id)).toBe(MP4.length)
  })

  it('answers a tampered offset with 409 and changes nothing', async () => {
    const { cookie } = await creatorWithPlan(site.db)
    const client = tusClient(site.baseUrl, cookie)
    const location = await started(client)
    expect((await client.patch(location, 0, MP4.subarray(0, 10_000))).status).toBe(204)
    const ahead = await client.patch(location, 20_000, MP4.subarray(20_000, 30_000))
    expect(ahead.status).toBe(409)
    const behind = await client.patch(location, 0, MP4.subarray(0, 10_000))
    expect(behind.status).toBe(409)
    expect((await client.head(location)).headers.get('upload-offset')).toBe('10000')
  })

  it("answers 404 to another creator's upload id for HEAD, PATCH and DELETE, and leaves it alone", async () => {
    const owner = await creatorWithPlan(site.db)
    const other = await creatorWithPlan(site.db)
    const ownerClient = tusClient(site.baseUrl, owner.cookie)
    const otherClient = tusClient(site.baseUrl, other.cookie)
    const location = await started(ownerClient)
    expect((await ownerClient.patch(location, 0, MP4.subarray(0, 1000))).status).toBe(204)

    const head = await otherClient.head(location)
    expect(head.status).toBe(404)
    expect(head.headers.get('upload-offset')).toBeNull()
    const patch = await otherClient.patch(location, 1000, MP4.subarray(1000, 2000))
    expect(patch.status).toBe(404)
    expect(await patch.text()).toBe(VIDEO_UPLOAD_MESSAGES.notFound)
    expect((await otherClient.remove(location)).status).toBe(404)
    const id = uploadIdOf(location)
    await expect((await callerAs(other.user)).creatorUploads.get({ uploadId: id })).rejects.toThrow(
      VIDEO_UPLOAD_MESSAGES.notFound,
    )

    expect((await ownerClient.head(location)).headers.get('upload-offset')).toBe('1000')
    expect((await rowOf(id))?.status).toBe('uploading')
  })

  it('refuses visitors, customers who are not creators, and creators without a plan', async () => {
    const visitor = await tusClient(site.baseUrl, '').create(MP4.length)
    expect(visitor.status).toBe(401)
    expect(await visitor.text()).toBe(TUS_MESSAGES.signIn)

    const customer = await createUser(site.db)
    const { token } = await createSessionToken(site.db, customer.id)
    const notCreator = await tusClient(site.baseUrl, `${SESSION_COOKIE}=${token}`).create(MP4.length)
    expect(notCreator.status).toBe(403)
    expect(await notCreator.text()).toBe(VIDEO_UPLOAD_MESSAGES.notCreator)

    const { user, cookie } = await creatorWithPlan(site.db, null)
    const noPlan = await tusClient(site.baseUrl, cookie).create(MP4.length)
    expect(noPlan.status).toBe(403)
    expect(await noPlan.text()).toBe(NO_PLAN_MESSAGE)
    const rows = await site.db
      .selectFrom('creator_uploads')
      .select('id')
      .where('user_id', 'in', [customer.id, user.id])
      .execute()
    expect(rows).toEqual([])
  })

  it('refuses a cross-site PATCH before tus sees it', async () => {
    const { cookie } = await creatorWithPlan(site.db)
    const location = await started(tusClient(site.baseUrl, cookie))
    const evil = tusClient(site.baseUrl, cookie, 'https://evil.example')
    expect((await evil.patch(location, 0, MP4.subarray(0, 100))).status).toBe(403)
    expect((await tusClient(site.baseUrl, cookie).head(location)).headers.get('upload-offset')).toBe('0')
  })

  it("refuses at creation an upload beyond the plan's storage, 4 GB + 1 byte, and no length", async () => {
    const { user, cookie } = await creatorWithPlan(site.db)
    const client = tusClient(site.baseUrl, cookie)
    const over = await client.create(LIMIT + 1)
    expect(over.status).toBe(413)
    expect(await over.text()).toBe(
      'This upload would pass your plan’s video storage: upgrade your plan or delete videos',
    )

    const huge = await client.create(CREATOR_VIDEO_MAX_BYTES + 1)
    expect(huge.status).toBe(413)
    expect(await huge.text()).toBe(VIDEO_UPLOAD_MESSAGES.tooLarge)

    const deferred = await client.create(null, 'x.mp4', { 'Upload-Defer-Length': '1' })
    expect(deferred.status).toBe(400)
    expect(await deferred.text()).toBe(TUS_MESSAGES.deferred)
    const missing = await client.create(null)
    expect(missing.status).toBe(400)

    expect(await site.db.selectFrom('creator_uploads').select('id').where('user_id', '=', user.id).execute()).toEqual(
      [],
    )
  })

  it('takes exactly 4 GB on an unlimited plan, and DELETE cancels it', async () => {
    const { user, cookie } = await creatorWithPlan(site.db, 'enterprise')
    const client = tusClient(site.baseUrl, cookie)
    const location = await started(client, CREATOR_VIDEO_MAX_BYTES)
    const id = uploadIdOf(location)
    expect(Number((await rowOf(id))?.size_bytes)).toBe(CREATOR_VIDEO_MAX_BYTES)
    expect((await client.remove(location)).status).toBe(204)
    expect(await rowOf(id)).toBeUndefined()
    expect((await client.head(location)).status).toBe(404)
    expect(await storageUsedBytes(site.db, user.id)).toBe(0)
  })

  it('refuses a file that is not a video when it finishes: deleted, not stored, not counted', async () => {
    const { user, cookie } = await creatorWithPlan(site.db)
    const client = tusClient(site.baseUrl, cookie)
    const text = Buffer.from('<?php echo "not a video"; ?>'.repeat(100))
    const location = await started(client, text.length, 'lesson.mp4')
    const finish = await client.patch(location, 0, text)
    expect(finish.status).toBe(415)
    expect(await finish.text()).toBe(VIDEO_UPLOAD_MESSAGES.refused)
    const id = uploadIdOf(location)
    expect(await rowOf(id)).toBeUndefined()
    expect(existsSync(path.join(tusDir(), id))).toBe(false)
    expect(await storageUsedBytes(site.db, user.id)).toBe(0)
    expect((await client.head(location)).status).toBe(404)
  })

  it("checks the plan's storage again when an upload finishes", async () => {
    const { user, cookie } = await creatorWithPlan(site.db)
    const client = tusClient(site.baseUrl, cookie)
    // Both fit when they start (nothing stored yet); the second passes the limit once the first is stored.
    const first = await started(client)
    const second = await started(client)
    expect((await client.patch(first, 0, MP4)).status).toBe(204)
    const refused = await client.patch(second, 0, MP4)
    expect(refused.status).toBe(413)
    expect(await refused.text()).toBe(
      'This upload would pass your plan’s video storage: upgrade your plan or delete videos',
    )
    expect(await rowOf(uploadIdOf(second))).toBeUndefined()
    expect(await storageUsedBytes(site.db, user.id)).toBe(MP4.length)
    const stored = await site.db
      .selectFrom('creator_uploads')
      .select('storage_key')
      .where('user_id', '=', user.id)
      .execute()
    expect(stored).toHaveLength(1)
    const videos = await readdir(path.join(site.uploadsDir, LESSON_VIDEO_PREFIX)).catch(() => [])
    expect(videos).toContain(path.basename(stored[0]?.storage_key as string))
  })

  it('gives the bytes back when the lesson is deleted or the creator releases an unattached video', async () => {
    const { user, cookie } = await creatorWithPlan(site.db)
    const client = tusClient(site.baseUrl, cookie)
    const location = await started(client)
    expect((await client.patch(location, 0, MP4)).status).toBe(204)
    const id = uploadIdOf(location)
    const lesson = await site.db.selectFrom('lessons').select(['id', 'course_id']).limit(1).executeTakeFirstOrThrow()
    await claimUpload(site.db, { userId: user.id, courseId: lesson.course_id }, id, lesson.id)
    const caller = await callerAs(user)
    // Attached to a lesson: not released from the uploads list, nor over tus.
    await expect(caller.creatorUploads.release({ uploadId: id })).rejects.toThrow('a lesson still uses it')
    expect((await client.remove(location)).status).toBe(409)
    expect(await storageUsedBytes(site.db, user.id)).toBe(MP4.length)
    const keys = await releaseLessonUploads(site.db, [lesson.id])
    expect(keys).toEqual([(await rowOf(id))?.storage_key])
    expect(await storageUsedBytes(site.db, user.id)).toBe(0)

    const next = await started(client)
    expect((await client.patch(next, 0, MP4)).status).toBe(204)
    const nextRow = await rowOf(uploadIdOf(next))
    const other = await creatorWithPlan(site.db)
    await expect((await callerAs(other.user)).creatorUploads.release({ uploadId: uploadIdOf(next) })).rejects.toThrow(
      'not found',
    )
    expect(await caller.creatorUploads.release({ uploadId: uploadIdOf(next) })).toEqual({ released: true })
    expect((await rowOf(uploadIdOf(next)))?.status).toBe('released')
    expect(existsSync(path.join(site.uploadsDir, nextRow?.storage_key as string))).toBe(false)
    expect(await storageUsedBytes(site.db, user.id)).toBe(0)
  })

  it('limits how many uploads a creator starts', async () => {
    const { cookie } = await creatorWithPlan(site.db, 'enterprise')
    const client = tusClient(site.baseUrl, cookie)
    for (let i = 0; i < TUS_CREATE_RULE.max; i++) expect((await client.create(1000)).status).toBe(201)
    const refused = await client.create(1000)
    expect(refused.status).toBe(429)
    expect(await refused.text()).toBe(TUS_MESSAGES.tooMany)
    // Another creator is not affected.
    expect(
      (await tusClient(site.baseUrl, (await creatorWithPlan(site.db, 'enterprise')).cookie).create(1000)).status,
    ).toBe(201)
  })

  it('sweeps uploads abandoned for a day, with their bytes', async () => {
    const { user, cookie } = await creatorWithPlan(site.db)
    const client = tusClient(site.baseUrl, cookie)
    const old = await started(client)
    const fresh = await started(client)
    expect((await client.patch(old, 0, MP4.subarray(0, 1000))).status).toBe(204)
    await site.db
      .updateTable('creator_uploads')
      .set({ created_at: sql`now() - interval '25 hours'` })
      .where('id', '=', uploadIdOf(old))
      .execute()
    const swept = await sweepAbandonedVideoUploads(site.db, createLocalTusFiles(tusDir()))
    expect(swept).toBeGreaterThanOrEqual(1)
    expect(await rowOf(uploadIdOf(old))).toBeUndefined()
    expect(existsSync(path.join(tusDir(), uploadIdOf(old)))).toBe(false)
    expect((await rowOf(uploadIdOf(fresh)))?.status).toBe('uploading')
    expect(existsSync(path.join(tusDir(), uploadIdOf(fresh)))).toBe(true)
    // Starting directly through the flow obeys the same rules.
    await expect(
      startVideoUpload(site.db, { userId: user.id, uploadId: 'x'.repeat(32), sizeBytes: 0, fileName: 'a' }),
    ).rejects.toThrow(VIDEO_UPLOAD_MESSAGES.empty)
  })
})
