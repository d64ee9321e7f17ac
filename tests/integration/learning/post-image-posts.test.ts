// Issue 33 (decision 0052 "Later"): an image in a lesson post is tied to the question or answer that uses it when that
// post is saved; a hidden post's images are served only to staff and the course's instructors (404 to learners) and
// again once restored; the upload sweep deletes images no post took within a day and keeps the ones a post uses.
import { utimes } from 'node:fs/promises'
import path from 'node:path'
import { sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import { SESSION_COOKIE } from '../../../src-server/auth/session.ts'
import { createLocalStorage } from '../../../src-server/storage/storage.ts'
import { sweepUnreferencedUploads } from '../../../src-server/storage/sweep.ts'
import { callerAs, createSessionToken, createUser, type TestUser } from '../../support/factories.ts'
import { buyerOfCourse } from '../../support/learning.ts'
import { serveForThisFile } from '../../support/test-server.ts'

const site = serveForThisFile()
const COURSE = 'modern-react-typescript'
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
)
const TWO_DAYS_AGO = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000)
let author: TestUser
let other: TestUser
let instructor: TestUser
let staff: TestUser
let lessonId: string

beforeAll(async () => {
  author = (await buyerOfCourse(site.db, COURSE)).user
  other = (await buyerOfCourse(site.db, COURSE)).user
  instructor = await createUser(site.db)
  staff = await createUser(site.db, { role: 'editor' })
  await site.db
    .insertInto('course_instructors')
    .values({ course_id: COURSE, user_id: instructor.id, role: 'co' })
    .execute()
  lessonId = (
    await site.db
      .selectFrom('lessons')
      .select('id')
      .where('course_id', '=', COURSE)
      .where('is_preview', '=', false)
      .executeTakeFirstOrThrow()
  ).id
})

async function cookieOf(user: TestUser) {
  const { token } = await createSessionToken(site.db, user.id)
  return `${SESSION_COOKIE}=${token}`
}

async function upload(user: TestUser) {
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'pic.png')
  const response = await fetch(`${site.baseUrl}/api/learn/post-images?courseId=${COURSE}&lessonId=${lessonId}`, {
    method: 'POST',
    headers: { cookie: await cookieOf(user), 'sec-fetch-site': 'same-origin', origin: site.baseUrl },
    body: form,
  })
  expect(response.status).toBe(200)
  return (await response.json()) as { id: string; url: string; markdown: string }
}

const imageRow = (id: string) =>
  site.db
    .selectFrom('lesson_post_images')
    .select(['post_id', 'post_kind', 'storage_key'])
    .where('id', '=', id)
    .executeTakeFirst()

async function status(url: string, user: TestUser) {
  return (await fetch(`${site.baseUrl}${url}`, { headers: { cookie: await cookieOf(user) } })).status
}

describe('post images follow their post', () => {
  it('ties images to the question or answer saved with them; hidden → 404 for learners, 200 for staff; restored → 200', async () => {
    const asked = await upload(author)
    const answered = await upload(author)
    const foreign = await upload(other)
    const me = await callerAs(site.db, author)
    const question = await me.questions.ask({
      courseId: COURSE,
      lessonId,
      title: 'What is this?',
      // Someone else's image pasted in is shown but stays theirs (not tied to this post).
      body: `Look:\n\n${asked.markdown}\n\n${foreign.markdown}`,
    })
    expect(await imageRow(asked.id)).toMatchObject({ post_id: question.id, post_kind: 'question' })
    expect((await imageRow(foreign.id))?.post_id).toBeNull()
    const answer = await me.questions.answer({ questionId: question.id, body: `Found it ${answered.markdown}` })
    expect(await imageRow(answered.id)).toMatchObject({ post_id: answer.id, post_kind: 'answer' })

    for (const url of [asked.url, answered.url]) expect(await status(url, other)).toBe(200)

    const moderator = await callerAs(site.db, staff)
    await moderator.questions.hide({ questionId: question.id, hidden: true })
    for (const url of [asked.url, answered.url]) {
      expect(await status(url, other)).toBe(404)
      expect(await status(url, author)).toBe(404)
      expect(await status(url, staff)).toBe(200)
      expect(await status(url, instructor)).toBe(200)
    }
    // The other learner's own, unattached image is not hidden with a post it is not part of.
    expect(await status(foreign.url, other)).toBe(200)

    await moderator.questions.hide({ questionId: question.id, hidden: false })
    for (const url of [asked.url, answered.url]) expect(await status(url, other)).toBe(200)

    // Only the answer hidden: its image goes, the question's stays.
    await (await callerAs(site.db, instructor)).questions.hide({
      questionId: question.id,
      answerId: answer.id,
      hidden: true,
    })
    expect(await status(answered.url, other)).toBe(404)
    expect(await status(asked.url, other)).toBe(200)
  })

  it('the upload sweep deletes an image no post took within a day and keeps attached and fresh ones', async () => {
    const attached = await upload(author)
    const unattached = await upload(author)
    const fresh = await upload(author)
    await (await callerAs(site.db, author)).questions.ask({
      courseId: COURSE,
      lessonId,
      title: 'Attached',
      body: attached.markdown,
    })
    const keys: Record<string, string> = {}
    for (const image of [attached, unattached, fresh]) {
      keys[image.id] = (await imageRow(image.id))?.storage_key ?? ''
    }
    for (const image of [attached, unattached]) {
      await sql`update lesson_post_images set created_at = ${TWO_DAYS_AGO} where id = ${image.id}`.execute(site.db)
      await utimes(path.join(site.uploadsDir, keys[image.id] as string), TWO_DAYS_AGO, TWO_DAYS_AGO)
    }

    const result = await sweepUnreferencedUploads({ db: site.db, storage: createLocalStorage(site.uploadsDir) })
    expect(result.unclaimedRows).toBe(1)
    expect(result.deleted).toContain(keys[unattached.id])
    expect(result.deleted).not.toContain(keys[attached.id])
    expect(await imageRow(unattached.id)).toBeUndefined()
    expect(await imageRow(attached.id)).toBeDefined()
    expect(await imageRow(fresh.id)).toBeDefined()
    expect(await status(attached.url, other)).toBe(200)
    expect(await status(fresh.url, author)).toBe(200)
  })
})
