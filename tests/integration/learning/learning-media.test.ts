// Lesson media over HTTP: the video route streams with Range behind the lesson's access rule, attachments too;
// lesson files are never served by the public /uploads route; the certificate PDF downloads.
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { SESSION_COOKIE } from '../../../src-server/auth/session.ts'
import { callerAs, createSessionToken, createUser, type TestUser } from '../../support/factories.ts'
import { buyerOfCourse, lessonsOf, storedAttachment } from '../../support/learning.ts'
import { serveForThisFile } from '../../support/test-server.ts'

const site = serveForThisFile()
const COURSE = 'modern-react-typescript'
const demoVideo = () => readFile(path.resolve('db/seed/media/welcome.webm'))

async function cookieOf(user: TestUser) {
  const { token } = await createSessionToken(site.db, user.id)
  return `${SESSION_COOKIE}=${token}`
}
const get = (url: string, headers: Record<string, string> = {}) => fetch(`${site.baseUrl}${url}`, { headers })

async function videoLessons() {
  const lessons = (await lessonsOf(site.db, COURSE)).filter((l) => l.kind === 'video')
  const preview = lessons.find((l) => l.is_preview)
  const locked = lessons.find((l) => !l.is_preview)
  if (!preview || !locked) throw new Error('the seed should give this course preview and locked video lessons')
  return { preview, locked }
}

describe('GET /api/learn/media/:lessonId', () => {
  it('streams a preview video to anyone, whole or by range', async () => {
    const { preview } = await videoLessons()
    const bytes = await demoVideo()
    const whole = await get(`/api/learn/media/${preview.id}`)
    expect(whole.status).toBe(200)
    expect(whole.headers.get('content-type')).toBe('video/webm')
    expect(whole.headers.get('accept-ranges')).toBe('bytes')
    expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true)

    const part = await get(`/api/learn/media/${preview.id}`, { range: 'bytes=100-199' })
    expect(part.status).toBe(206)
    expect(part.headers.get('content-range')).toBe(`bytes 100-199/${bytes.length}`)
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(100, 200))).toBe(true)

    const beyond = await get(`/api/learn/media/${preview.id}`, { range: `bytes=${bytes.length}-` })
    expect(beyond.status).toBe(416)
  })

  it('refuses a locked video to visitors (401) and non-buyers (403); a buyer gets it', async () => {
    const { locked } = await videoLessons()
    expect((await get(`/api/learn/media/${locked.id}`)).status).toBe(401)
    const stranger = await createUser(site.db)
    expect((await get(`/api/learn/media/${locked.id}`, { cookie: await cookieOf(stranger) })).status).toBe(403)
    const { user } = await buyerOfCourse(site.db, COURSE)
    const response = await get(`/api/learn/media/${locked.id}`, { cookie: await cookieOf(user), range: 'bytes=0-9' })
    expect(response.status).toBe(206)
  })

  it('answers 404 for an unknown or malformed lesson id', async () => {
    expect((await get('/api/learn/media/00000000-0000-4000-8000-000000000000')).status).toBe(404)
    expect((await get('/api/learn/media/..%2F..%2Fetc%2Fpasswd')).status).toBe(404)
  })
})

describe('a lesson without a video, or a video without renditions', () => {
  it('answers like any lesson the caller cannot open (401, 403) before its 404, on /media and /hls', async () => {
    const lessons = await lessonsOf(site.db, COURSE)
    const article = lessons.find((l) => l.kind !== 'video' && !l.is_preview)
    if (!article) throw new Error('the seed should give this course a locked lesson without a video')
    // The seed's demo videos have no HLS renditions.
    const { locked: videoOnly } = await videoLessons()
    const stranger = await cookieOf(await createUser(site.db))
    const buyer = await cookieOf((await buyerOfCourse(site.db, COURSE)).user)
    const urls = [
      `/api/learn/media/${article.id}`,
      `/api/learn/hls/${article.id}/master.m3u8`,
      `/api/learn/hls/${videoOnly.id}/master.m3u8`,
      `/api/learn/hls/${videoOnly.id}/360p/index.m3u8`,
    ]
    for (const url of urls) {
      const statuses = [
        (await get(url)).status,
        (await get(url, { cookie: stranger })).status,
        (await get(url, { cookie: buyer })).status,
      ]
      expect({ url, statuses }).toEqual({ url, statuses: [401, 403, 404] })
    }
  })
})

describe('lesson files in storage', () => {
  it('an attachment downloads only for those who may open its lesson; /uploads never serves lesson files', async () => {
    const { locked } = await videoLessons()
    const attachment = await storedAttachment(site.db, site.uploadsDir, locked.id, 'private/lessons/test/notes.txt')
    const { url } = attachment
    expect((await get(url)).status).toBe(401)
    const { user } = await buyerOfCourse(site.db, COURSE)
    const response = await get(url, { cookie: await cookieOf(user) })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-disposition')).toContain('attachment')
    expect(await response.text()).toBe('lesson notes')
    const lesson = await (await callerAs(site.db, user)).learning.lesson({ courseId: COURSE, lessonId: locked.id })
    expect(lesson.content?.attachments).toEqual([{ id: attachment.id, name: 'notes.txt', sizeBytes: 12, url }])

    for (const direct of [
      '/uploads/private/lessons/test/notes.txt',
      '/uploads/private%2Flessons%2Ftest%2Fnotes.txt',
      '/uploads/./private/lessons/test/notes.txt',
    ]) {
      expect((await get(direct)).status, direct).toBe(404)
    }
  })
})

describe('GET /api/certificates/:id/pdf', () => {
  it('downloads a PDF of an issued certificate; an unknown id is 404', async () => {
    const user = await createUser(site.db, { firstName: 'Ada', lastName: 'Lovelace' })
    // A completed course as learning/ records it (its own tests cover how one gets there).
    await site.db
      .insertInto('course_completions')
      .values({ user_id: user.id, course_id: COURSE, lesson_count: 1, access_source: 'staff' })
      .execute()
    const certificate = await site.db
      .insertInto('certificates')
      .values({
        user_id: user.id,
        course_id: COURSE,
        learner_name: 'Ada Lovelace',
        course_title: 'React',
        instructor_name: 'Sarah Chen',
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    const response = await get(`/api/certificates/${certificate.id}/pdf`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/pdf')
    const pdf = Buffer.from(await response.arrayBuffer())
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-')
    expect((await get('/api/certificates/00000000-0000-4000-8000-000000000000/pdf')).status).toBe(404)
  })
})
