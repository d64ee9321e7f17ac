// An application's sample video over tus (purpose "application", decision 0039): any signed-in person uploads it
// (no creator, no plan), it is judged as a lesson video is, stored under the applicant's private prefix, counted by
// no plan and never transcoded; it goes only with the uploader's own application, and only the applicant and staff
// read it. A non-video and a length over 500 MB are refused.
import { randomUUID } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { SESSION_COOKIE } from '../../../src-server/auth/session.ts'
import { storageUsedBytes } from '../../../src-server/creators/limits.ts'
import { claimUpload } from '../../../src-server/creators/uploads.ts'
import { VIDEO_UPLOAD_MESSAGES } from '../../../src-server/flows/creator-video-uploads.ts'
import { TUS_MESSAGES } from '../../../src-server/http/tus-uploads.ts'
import { createLocalStorage } from '../../../src-server/storage/storage.ts'
import { sweepUnreferencedUploads } from '../../../src-server/storage/sweep.ts'
import { APPLICATION_MESSAGES, APPLICATION_VIDEO_MAX_BYTES } from '../../../src-shared/schemas/creators.ts'
import { creatorWithPlan, tusClient, uploadIdOf } from '../../support/creator-uploads.ts'
import { createSessionToken, createUser, type TestUser } from '../../support/factories.ts'
import { trpcPost } from '../../support/http.ts'
import { serveForThisFile } from '../../support/test-server.ts'

const site = serveForThisFile()

const MP4 = await readFile(path.resolve('public/media/promo-1.mp4'))
const PROPOSAL = 'A practical course on SQL window functions for analysts who know SELECT and GROUP BY. '.repeat(4)
const application = (attachment: unknown) => ({
  headline: 'Data analyst and SQL trainer',
  categories: ['development'],
  proposal: PROPOSAL,
  links: { website: '', linkedin: '', youtube: '' },
  attachment,
})

async function cookieOf(user: TestUser) {
  const { token } = await createSessionToken(site.db, user.id)
  return `${SESSION_COOKIE}=${token}`
}

const metadata = (fileName: string, purpose = 'application') =>
  [
    `filename ${Buffer.from(fileName).toString('base64')}`,
    `filetype ${Buffer.from('video/mp4').toString('base64')}`,
    `purpose ${Buffer.from(purpose).toString('base64')}`,
  ].join(',')

/** Starts a sample video upload of `length` bytes; the answer as is. */
function create(cookie: string, length: number, fileName = 'sample.mp4', purpose = 'application') {
  return tusClient(site.baseUrl, cookie).create(length, fileName, { 'Upload-Metadata': metadata(fileName, purpose) })
}

/** Uploads `bytes` as a sample video in two PATCHes; the last answer and the upload id. */
async function uploadSample(cookie: string, bytes: Buffer, fileName = 'sample.mp4') {
  const client = tusClient(site.baseUrl, cookie)
  const created = await create(cookie, bytes.length, fileName)
  expect(created.status, await created.clone().text()).toBe(201)
  const location = created.headers.get('location') as string
  const half = Math.floor(bytes.length / 2)
  expect((await client.patch(location, 0, bytes.subarray(0, half))).status).toBe(204)
  // Resuming asks the server where it stopped.
  expect((await client.head(location)).headers.get('upload-offset')).toBe(String(half))
  const last = await client.patch(location, half, bytes.subarray(half))
  return { last, uploadId: uploadIdOf(location), location }
}

async function apply(cookie: string, attachment: unknown) {
  const response = await trpcPost(site.baseUrl, 'creators.submitApplication', application(attachment), { cookie })
  return {
    status: response.status,
    body: (await response.json()) as { result?: { data: { id: string } }; error?: { message: string } },
  }
}

const rowOf = (id: string) => site.db.selectFrom('creator_uploads').selectAll().where('id', '=', id).executeTakeFirst()

describe('an application sample video over tus', () => {
  it('is uploaded by a signed-in customer, attached to their application, read by them and staff only', async () => {
    const applicant = await createUser(site.db)
    const cookie = await cookieOf(applicant)
    const { last, uploadId } = await uploadSample(cookie, MP4, 'my sample.mp4')
    expect(last.status, await last.clone().text()).toBe(204)

    const row = await rowOf(uploadId)
    expect(row).toMatchObject({ purpose: 'application', status: 'stored', content_type: 'video/mp4' })
    expect(row?.storage_key?.startsWith(`private/applications/${applicant.id}/`)).toBe(true)
    // Not a lesson video: no renditions wanted, nothing counted against a plan.
    expect(row?.transcode_status).toBeNull()
    expect(await storageUsedBytes(site.db, applicant.id)).toBe(0)
    // A finished sample video cannot be deleted over tus (an application may already hold it).
    expect((await tusClient(site.baseUrl, cookie).remove(`/api/uploads/tus/${uploadId}`)).status).toBe(409)

    // Another person cannot attach it to their own application.
    const intruder = await createUser(site.db)
    const intruderCookie = await cookieOf(intruder)
    const stolen = await apply(intruderCookie, { uploadId, name: 'stolen.mp4' })
    expect(stolen.status).toBe(400)
    expect(stolen.body.error?.message).toBe(APPLICATION_MESSAGES.attachmentMissing)
    // Nor reach the upload itself.
    expect((await tusClient(site.baseUrl, intruderCookie).head(`/api/uploads/tus/${uploadId}`)).status).toBe(404)

    const applied = await apply(cookie, { uploadId, name: 'my sample.mp4' })
    expect(applied.status, JSON.stringify(applied.body)).toBe(200)
    const id = applied.body.result?.data.id as string
    const stored = await site.db
      .selectFrom('creator_applications')
      .select('attachment')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    expect(stored.attachment).toMatchObject({
      key: row?.storage_key,
      contentType: 'video/mp4',
      sizeBytes: MP4.length,
      name: 'my sample.mp4',
    })

    const download = (who: string) =>
      fetch(`${site.baseUrl}/api/creator-applications/${id}/attachment`, { headers: { cookie: who } })
    const own = await download(cookie)
    expect(own.status).toBe(200)
    expect(own.headers.get('content-type')).toBe('video/mp4')
    expect(Buffer.from(await own.arrayBuffer()).equals(MP4)).toBe(true)
    const admin = await createUser(site.db, { role: 'admin' })
    const staff = await download(await cookieOf(admin))
    expect(staff.status).toBe(200)
    expect(Buffer.from(await staff.arrayBuffer()).equals(MP4)).toBe(true)
    expect((await download(intruderCookie)).status).toBe(404)
    expect((await download('')).status).toBe(401)
  })

  it('refuses a non-video, a length over 500 MB, an unknown purpose and a visitor', async () => {
    const applicant = await createUser(site.db)
    const cookie = await cookieOf(applicant)

    const fake = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(4096, 0x20)])
    const { last, uploadId } = await uploadSample(cookie, fake, 'not-a-video.mp4')
    expect(last.status).toBe(415)
    expect(await last.text()).toBe(VIDEO_UPLOAD_MESSAGES.refused)
    expect(await rowOf(uploadId)).toBeUndefined()
    expect((await apply(cookie, { uploadId, name: 'x.mp4' })).body.error?.message).toBe(
      APPLICATION_MESSAGES.attachmentMissing,
    )

    const tooLarge = await create(cookie, APPLICATION_VIDEO_MAX_BYTES + 1)
    expect(tooLarge.status).toBe(413)
    expect(await tooLarge.text()).toBe(VIDEO_UPLOAD_MESSAGES.applicationTooLarge)
    // Exactly 500 MB may start (nothing is sent here; the row is the upload in progress).
    const atLimit = await create(cookie, APPLICATION_VIDEO_MAX_BYTES)
    expect(atLimit.status).toBe(201)
    await tusClient(site.baseUrl, cookie).remove(atLimit.headers.get('location') as string)

    const unknown = await create(cookie, MP4.length, 'sample.mp4', 'anything')
    expect(unknown.status).toBe(400)
    expect(await unknown.text()).toBe(TUS_MESSAGES.purpose)
    expect((await create('', MP4.length)).status).toBe(401)
    // Without the purpose, an upload is a lesson video: creators only.
    const lesson = await tusClient(site.baseUrl, cookie).create(MP4.length)
    expect(lesson.status).toBe(403)
  })

  it('is never a lesson video, and counts against no plan', async () => {
    const { user, cookie } = await creatorWithPlan(site.db)
    const { last, uploadId } = await uploadSample(cookie, MP4)
    expect(last.status).toBe(204)
    expect(await storageUsedBytes(site.db, user.id)).toBe(0)
    await expect(
      claimUpload(site.db, { userId: user.id, courseId: 'any-course' }, uploadId, randomUUID()),
    ).rejects.toThrow('not found')
    const studio = await site.db
      .selectFrom('creator_uploads')
      .select('id')
      .where('user_id', '=', user.id)
      .where('purpose', '=', 'lesson')
      .execute()
    expect(studio).toEqual([])
  })

  it('is kept by its application; one no application took is swept like an unused CV', async () => {
    const applicant = await createUser(site.db)
    const cookie = await cookieOf(applicant)
    const kept = await uploadSample(cookie, MP4, 'kept.mp4')
    const dropped = await uploadSample(cookie, MP4, 'dropped.mp4')
    expect([kept.last.status, dropped.last.status]).toEqual([204, 204])
    expect((await apply(cookie, { uploadId: kept.uploadId, name: 'kept.mp4' })).status).toBe(200)
    const keyOf = async (id: string) => (await rowOf(id))?.storage_key as string
    const [keptKey, droppedKey] = [await keyOf(kept.uploadId), await keyOf(dropped.uploadId)]

    const storage = createLocalStorage(site.uploadsDir)
    const result = await sweepUnreferencedUploads({ db: site.db, storage, olderThan: new Date(Date.now() + 60_000) })
    expect(result.deleted).toContain(droppedKey)
    expect(result.deleted).not.toContain(keptKey)
    expect(await storage.size(keptKey)).toBe(MP4.length)
    expect(await storage.size(droppedKey)).toBeNull()
  })
})
