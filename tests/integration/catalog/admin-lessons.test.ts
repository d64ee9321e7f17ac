// Editors set a lesson's content: uploads checked by content and size (LESSON_VIDEO_MAX_BYTES), a YouTube link
// turned into a privacy embed, attachments; viewers and customers cannot; learners then get exactly that.
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { SESSION_COOKIE } from '../../../src-server/auth/session.ts'
import { VIDEO_LENGTH_UNKNOWN } from '../../../src-server/http/lesson-uploads.ts'
import { callerAs, createSessionToken, createUser, type TestUser } from '../../support/factories.ts'
import { trpcPost } from '../../support/http.ts'
import { buyerOfCourse, lessonsOf } from '../../support/learning.ts'
import { serveForThisFile } from '../../support/test-server.ts'

const site = serveForThisFile({ env: { LESSON_VIDEO_MAX_BYTES: 100 * 1024 } })
const COURSE = 'sql-for-analysts'

async function cookieOf(user: TestUser) {
  const { token } = await createSessionToken(site.db, user.id)
  return `${SESSION_COOKIE}=${token}`
}

function upload(endpoint: string, cookie: string, bytes: Buffer, name: string) {
  const body = new FormData()
  body.append('file', new Blob([new Uint8Array(bytes)]), name)
  return fetch(`${site.baseUrl}${endpoint}`, {
    method: 'POST',
    body,
    headers: { cookie, origin: 'http://storefront.test' },
  })
}

describe('lesson uploads', () => {
  it('accepts a real video from an editor; refuses other bytes, oversize files, viewers and visitors', async () => {
    const editor = await createUser(site.db, { role: 'editor' })
    const cookie = await cookieOf(editor)
    const video = await readFile(path.resolve('db/seed/media/recap.webm'))
    const ok = await upload('/api/admin/lesson-video', cookie, video, 'lesson.webm')
    expect(ok.status).toBe(200)
    const stored = (await ok.json()) as { key: string; contentType: string }
    expect(stored.key).toMatch(/^private\/lessons\/videos\/\d+-[0-9a-f]{16}\.webm$/)
    expect(stored.contentType).toBe('video/webm')

    const fake = await upload('/api/admin/lesson-video', cookie, Buffer.from('<?php system($_GET[1]); ?>'), 'x.mp4')
    expect(fake.status).toBe(400)
    const big = await upload(
      '/api/admin/lesson-video',
      cookie,
      Buffer.concat([video, Buffer.alloc(100 * 1024)]),
      'big.webm',
    )
    expect(big.status).toBe(413)
    expect(((await big.json()) as { message: string }).message).toBe('Video size should be less than 100kB')
    // The editor is told that limit with the lesson, to say it and check a file before sending it.
    const [lesson] = await lessonsOf(site.db, COURSE)
    const input = encodeURIComponent(JSON.stringify({ courseId: COURSE, lessonId: lesson!.id }))
    const content = await fetch(`${site.baseUrl}/trpc/admin.courses.lessonContent?input=${input}`, {
      headers: { cookie },
    })
    expect(((await content.json()) as { result: { data: { videoMaxBytes: number } } }).result.data.videoMaxBytes).toBe(
      100 * 1024,
    )

    const viewer = await createUser(site.db, { role: 'viewer' })
    expect((await upload('/api/admin/lesson-video', await cookieOf(viewer), video, 'v.webm')).status).toBe(403)
    expect((await upload('/api/admin/lesson-video', '', video, 'v.webm')).status).toBe(401)

    const binary = await upload(
      '/api/admin/lesson-attachment',
      cookie,
      Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2]),
      'tool.pdf',
    )
    expect(binary.status).toBe(400)
  })
})

/** Saves through the real server (whose storage holds the uploads), as the lesson dialog does. */
async function saveContent(cookie: string, input: unknown) {
  const response = await trpcPost(site.baseUrl, 'admin.courses.updateLessonContent', input, { cookie })
  const body = (await response.json()) as { result?: { data: unknown }; error?: unknown }
  expect(response.status, JSON.stringify(body.error)).toBe(200)
  return body.result?.data
}

describe('admin.courses.updateLessonContent', () => {
  it('stores an uploaded video, text and attachments that a buyer then gets; the public route never serves them', async () => {
    const editor = await createUser(site.db, { role: 'editor' })
    const cookie = await cookieOf(editor)
    const lesson = (await lessonsOf(site.db, COURSE)).find((l) => !l.is_preview)
    if (!lesson) throw new Error('no locked lesson')
    const video = (await (
      await upload(
        '/api/admin/lesson-video',
        cookie,
        await readFile(path.resolve('db/seed/media/recap.webm')),
        'v.webm',
      )
    ).json()) as { key: string }
    const notes = (await (
      await upload('/api/admin/lesson-attachment', cookie, Buffer.from('# Notes\n'), 'notes.txt')
    ).json()) as {
      key: string
      name: string
    }
    const saved = await saveContent(cookie, {
      courseId: COURSE,
      lessonId: lesson.id,
      kind: 'video',
      bodyMarkdown: 'Watch, then **practise**.',
      videoUrl: '',
      videoKey: video.key,
      attachments: [{ name: notes.name, key: notes.key }],
    })
    expect(saved).toMatchObject({
      kind: 'video',
      videoKey: video.key,
      attachments: [{ name: 'notes.txt', key: notes.key, sizeBytes: 8 }],
    })

    const { user } = await buyerOfCourse(site.db, COURSE)
    const seen = await (await callerAs(site.db, user)).learning.lesson({ courseId: COURSE, lessonId: lesson.id })
    expect(seen.content?.html).toContain('<strong>practise</strong>')
    expect(seen.content?.video).toEqual({ type: 'file', hls: null, poster: null, src: `/api/learn/media/${lesson.id}` })
    const media = await fetch(`${site.baseUrl}/api/learn/media/${lesson.id}`, {
      headers: { cookie: await cookieOf(user), range: 'bytes=0-3' },
    })
    expect(media.status).toBe(206)
    expect([...new Uint8Array(await media.arrayBuffer())]).toEqual([0x1a, 0x45, 0xdf, 0xa3])
    expect((await fetch(`${site.baseUrl}/uploads/${video.key}`)).status).toBe(404)

    // A YouTube link instead: the learner gets the privacy-enhanced embed; the old attachment can be dropped.
    await saveContent(cookie, {
      courseId: COURSE,
      lessonId: lesson.id,
      kind: 'video',
      bodyMarkdown: '',
      videoUrl: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      videoKey: null,
      attachments: [],
    })
    const embedded = await (await callerAs(site.db, user)).learning.lesson({ courseId: COURSE, lessonId: lesson.id })
    expect(embedded.content?.video).toEqual({
      type: 'embed',
      src: 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ',
      provider: 'youtube',
    })
    expect(embedded.content?.attachments).toEqual([])
  })

  it('refuses files the upload routes did not store, bad video links, and non-editors', async () => {
    const lesson = (await lessonsOf(site.db, COURSE))[0]
    const input = {
      courseId: COURSE,
      lessonId: lesson?.id ?? '',
      kind: 'video' as const,
      bodyMarkdown: '',
      videoUrl: '',
      attachments: [],
    }
    const editor = await callerAs(site.db, await createUser(site.db, { role: 'editor' }))
    await expect(
      editor.admin.courses.updateLessonContent({ ...input, videoKey: 'avatars/x/me.png' }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' })
    await expect(
      editor.admin.courses.updateLessonContent({ ...input, videoKey: null, videoUrl: 'https://evil.example/v.mp4' }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' })
    await expect(
      editor.admin.courses.updateLessonContent({
        ...input,
        kind: 'article',
        videoKey: null,
        attachments: [{ name: 'x', key: '../../etc/passwd' }],
      }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' })
    for (const role of ['viewer', 'customer'] as const) {
      const caller = await callerAs(site.db, await createUser(site.db, { role }))
      await expect(
        caller.admin.courses.updateLessonContent({ ...input, kind: 'article', videoKey: null }),
      ).rejects.toMatchObject({
        code: 'FORBIDDEN',
      })
    }
  })
})

describe('an uploaded video’s length', () => {
  it('is read from the file: the lesson and the course total follow it, a typed duration does not replace it', async () => {
    const course = 'website-seo'
    const editor = await createUser(site.db, { role: 'editor' })
    const cookie = await cookieOf(editor)
    const response = await upload(
      '/api/admin/lesson-video',
      cookie,
      await readFile(path.resolve('db/seed/media/recap.webm')),
      'recap.webm',
    )
    expect(response.status).toBe(200)
    const stored = (await response.json()) as { key: string; durationSeconds: number; sizeBytes: number }
    expect(stored.durationSeconds).toBe(60)
    const lesson = (await lessonsOf(site.db, course)).find((l) => l.kind === 'article' && l.duration_seconds !== 60)
    if (!lesson) throw new Error('no article lesson')
    const saved = await saveContent(cookie, {
      courseId: course,
      lessonId: lesson.id,
      kind: 'video',
      bodyMarkdown: '',
      videoUrl: '',
      videoKey: stored.key,
      attachments: [],
    })
    expect(saved).toMatchObject({ videoKey: stored.key, videoDurationSeconds: 60, durationSeconds: 60 })
    const total = async () => {
      const lessons = await lessonsOf(site.db, course)
      const row = await site.db
        .selectFrom('courses')
        .select('duration_minutes')
        .where('id', '=', course)
        .executeTakeFirstOrThrow()
      return {
        shown: row.duration_minutes,
        sum: Math.round(lessons.reduce((sum, l) => sum + l.duration_seconds, 0) / 60),
        lesson: lessons.find((l) => l.id === lesson.id)?.duration_seconds,
      }
    }
    const after = await total()
    expect(after.lesson).toBe(60)
    expect(after.shown).toBe(after.sum)

    // The course form sends every lesson's duration as typed; the video lesson's stays the file's.
    const asEditor = await callerAs(site.db, editor)
    const listed = await asEditor.admin.courses.list({ search: 'SEO' })
    const form = listed.items.find((item) => item.id === course)
    if (!form) throw new Error('course not listed')
    const videoLesson = form.curriculum.flatMap((s) => s.lessons).find((l) => l.id === lesson.id)
    expect(videoLesson).toMatchObject({ duration: '1:00', durationFromVideo: true })
    await asEditor.admin.courses.update({
      ...form,
      id: course,
      price: form.price,
      originalPrice: form.originalPrice,
      status: form.status === 'published' ? 'published' : 'draft',
      level: form.level as 'beginner',
      curriculum: form.curriculum.map((section) => ({
        ...section,
        lessons: section.lessons.map((l) => ({ ...l, duration: '9:59' })),
      })),
    })
    const edited = await total()
    expect(edited.lesson).toBe(60)
    expect(edited.shown).toBe(edited.sum)
  })

  it('refuses a video that does not say how long it is', async () => {
    const webm = Buffer.from(await readFile(path.resolve('db/seed/media/recap.webm')))
    const at = webm.indexOf(Buffer.from([0x44, 0x89]))
    const size = webm[at + 2]! & 0x7f
    const voided = Buffer.concat([
      webm.subarray(0, at),
      Buffer.from([0xec, 0x80 | (size + 1)]),
      Buffer.alloc(size + 1),
      webm.subarray(at + 3 + size),
    ])
    const editor = await createUser(site.db, { role: 'editor' })
    const response = await upload('/api/admin/lesson-video', await cookieOf(editor), voided, 'live.webm')
    expect(response.status).toBe(400)
    expect(((await response.json()) as { message: string }).message).toBe(VIDEO_LENGTH_UNKNOWN)
  })
})
