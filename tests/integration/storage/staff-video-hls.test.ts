// Staff-uploaded lesson videos are transcoded to HLS like creators' (issue 37, decision 0064): the upload through
// /api/admin/lesson-video is recorded as a stored upload whose renditions are wanted, relayed onto the queue once;
// its job makes the renditions; the lesson a staff editor saved it on then plays them behind the access check. It
// counts against no creator's plan, and once no lesson uses it the sweep releases it with its renditions.
// Needs ffmpeg (skipped, and said so, on a machine without it).
import { readFile, stat } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { SESSION_COOKIE } from '../../../src-server/auth/session.ts'
import { storageUsedBytes } from '../../../src-server/creators/limits.ts'
import { renditionsOfKey } from '../../../src-server/creators/upload-rows.ts'
import { relayTranscodes, transcodeUpload } from '../../../src-server/flows/video-transcoding.ts'
import { findFfmpeg } from '../../../src-server/storage/ffmpeg.ts'
import { createLocalStorage } from '../../../src-server/storage/storage.ts'
import { sweepUnreferencedUploads } from '../../../src-server/storage/sweep.ts'
import { callerAs, createSessionToken, createUser, type TestUser } from '../../support/factories.ts'
import { trpcPost } from '../../support/http.ts'
import { buyerOfCourse, lessonsOf } from '../../support/learning.ts'
import { approveCreator } from '../../support/studio.ts'
import { serveForThisFile } from '../../support/test-server.ts'

const site = serveForThisFile()
const COURSE = 'sql-for-analysts'
const tools = findFfmpeg()
const log = { info() {}, warn() {}, error() {}, debug() {} } as never

async function cookieOf(user: TestUser) {
  const { token } = await createSessionToken(site.db, user.id)
  return `${SESSION_COOKIE}=${token}`
}
const get = (url: string, headers: Record<string, string> = {}) => fetch(`${site.baseUrl}${url}`, { headers })

async function uploadVideo(cookie: string, bytes: Buffer) {
  const body = new FormData()
  body.append('file', new Blob([new Uint8Array(bytes)]), 'staff lesson.webm')
  const response = await fetch(`${site.baseUrl}/api/admin/lesson-video`, {
    method: 'POST',
    body,
    headers: { cookie, origin: 'http://storefront.test' },
  })
  expect(response.status).toBe(200)
  return (await response.json()) as { key: string }
}

async function saveVideo(cookie: string, lessonId: string, videoKey: string) {
  const response = await trpcPost(
    site.baseUrl,
    'admin.courses.updateLessonContent',
    { courseId: COURSE, lessonId, kind: 'video', bodyMarkdown: '', videoUrl: '', videoKey, attachments: [] },
    { cookie },
  )
  expect(response.status, await response.clone().text()).toBe(200)
}

const uploadRow = (key: string) =>
  site.db
    .selectFrom('creator_uploads')
    .select(['id', 'user_id', 'status', 'staff_upload', 'transcode_status', 'transcode_job_id', 'hls_prefix'])
    .where('storage_key', '=', key)
    .executeTakeFirstOrThrow()

describe.skipIf(!tools)('HLS renditions of a staff-uploaded lesson video', () => {
  it('queues, transcodes and serves the renditions of a video staff uploaded; no creator plan counts it', async () => {
    // An editor who happens to teach too: the shop's lesson video is not their plan's.
    const editor = await createUser(site.db, { role: 'editor' })
    await approveCreator(site.db, editor.id, 'Eddie Editor')
    const cookie = await cookieOf(editor)
    const source = await readFile(path.resolve('db/seed/media/recap.webm'))
    const { key } = await uploadVideo(cookie, source)
    const row = await uploadRow(key)
    expect(row).toMatchObject({
      user_id: editor.id,
      status: 'stored',
      staff_upload: true,
      transcode_status: 'queued',
      transcode_job_id: null,
    })
    expect(await storageUsedBytes(site.db, editor.id)).toBe(0)

    const lesson = (await lessonsOf(site.db, COURSE)).find((l) => !l.is_preview)
    if (!lesson) throw new Error('no locked lesson')
    await saveVideo(cookie, lesson.id, key)

    // The relay puts it on the queue once, as it does a creator's upload.
    const enqueued: string[] = []
    const enqueue = async (id: string) => {
      enqueued.push(id)
      return `job-${enqueued.length}`
    }
    await relayTranscodes(site.db, enqueue)
    await relayTranscodes(site.db, enqueue)
    expect(enqueued.filter((id) => id === row.id)).toEqual([row.id])

    const storage = createLocalStorage(site.uploadsDir)
    expect(await transcodeUpload({ db: site.db, storage, log, ffmpeg: tools }, row.id)).toBe('ready')
    const renditions = await renditionsOfKey(site.db, key)
    expect(renditions?.heights.length).toBeGreaterThan(0)
    const prefix = renditions?.prefix as string
    expect(prefix).toBe(key.replace(/\.webm$/, '-hls/'))
    expect((await stat(path.join(site.uploadsDir, prefix, 'master.m3u8'))).size).toBeGreaterThan(0)

    // The learner's lesson plays the renditions, behind the lesson's access check.
    const { user } = await buyerOfCourse(site.db, COURSE)
    const seen = await (await callerAs(site.db, user)).learning.lesson({ courseId: COURSE, lessonId: lesson.id })
    expect(seen.content?.video).toMatchObject({ type: 'file', hls: `/api/learn/hls/${lesson.id}/master.m3u8` })
    const master = await get(`/api/learn/hls/${lesson.id}/master.m3u8`, { cookie: await cookieOf(user) })
    expect(master.status).toBe(200)
    expect(await master.text()).toContain(`${renditions?.heights[0]}p/index.m3u8`)
    expect((await get(`/api/learn/hls/${lesson.id}/master.m3u8`)).status).toBe(401)
    const stranger = await cookieOf(await createUser(site.db))
    expect((await get(`/api/learn/hls/${lesson.id}/master.m3u8`, { cookie: stranger })).status).toBe(403)
  })

  it('keeps a staff upload while a lesson uses it, and releases it with its renditions once none does', async () => {
    const editor = await createUser(site.db, { role: 'editor' })
    const cookie = await cookieOf(editor)
    const source = await readFile(path.resolve('db/seed/media/recap.webm'))
    const used = await uploadVideo(cookie, source)
    const dropped = await uploadVideo(cookie, source)
    const lesson = (await lessonsOf(site.db, COURSE)).find((l) => !l.is_preview)
    if (!lesson) throw new Error('no locked lesson')
    await saveVideo(cookie, lesson.id, used.key)
    const storage = createLocalStorage(site.uploadsDir)
    const droppedRow = await uploadRow(dropped.key)
    expect(await transcodeUpload({ db: site.db, storage, log, ffmpeg: tools }, droppedRow.id)).toBe('ready')
    const droppedPrefix = (await uploadRow(dropped.key)).hls_prefix as string

    // A day later (every file counts as old), the sweep keeps the used upload and releases the other.
    const result = await sweepUnreferencedUploads({
      db: site.db,
      storage,
      olderThan: new Date(Date.now() + 86_400_000),
    })
    expect(result.releasedStaffUploads).toBeGreaterThanOrEqual(1)
    expect((await uploadRow(used.key)).status).toBe('stored')
    expect((await uploadRow(dropped.key)).status).toBe('released')
    expect(result.deleted).toContain(dropped.key)
    expect(result.deleted).toContain(`${droppedPrefix}master.m3u8`)
    expect(result.deleted).not.toContain(used.key)
    await expect(stat(path.join(site.uploadsDir, used.key))).resolves.toBeTruthy()
  })
})

if (!tools) console.warn('staff-video-hls: no ffmpeg on this machine, tests skipped')
