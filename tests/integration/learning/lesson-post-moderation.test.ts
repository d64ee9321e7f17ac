// Issue 33, the rest of questions under lessons: images in posts by the upload rules (judged by content, private,
// shown only to those who may see the lesson), and the reported-posts queue (staff see every course, instructors
// their own; hide, restore, dismiss; role and ownership checked on the server).
import { beforeAll, describe, expect, it } from 'vitest'
import { SESSION_COOKIE } from '../../../src-server/auth/session.ts'
import { createCreator } from '../../support/creator-courses.ts'
import { callerAs, createSessionToken, createUser, type TestUser } from '../../support/factories.ts'
import { buyerOfCourse } from '../../support/learning.ts'
import { serveForThisFile } from '../../support/test-server.ts'

const site = serveForThisFile()
const COURSE = 'modern-react-typescript'
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
)
let learner: TestUser
let instructor: TestUser
let lessonId: string

beforeAll(async () => {
  learner = (await buyerOfCourse(site.db, COURSE)).user
  instructor = await createUser(site.db)
  await site.db
    .insertInto('course_instructors')
    .values({ course_id: COURSE, user_id: instructor.id, role: 'co' })
    .execute()
  const lesson = await site.db
    .selectFrom('lessons')
    .select('id')
    .where('course_id', '=', COURSE)
    .where('is_preview', '=', false)
    .executeTakeFirstOrThrow()
  lessonId = lesson.id
})

async function cookieOf(user: TestUser) {
  const { token } = await createSessionToken(site.db, user.id)
  return `${SESSION_COOKIE}=${token}`
}

async function upload(cookie: string, bytes: Buffer, name = 'pic.png', type = 'image/png') {
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), name)
  return fetch(`${site.baseUrl}/api/learn/post-images?courseId=${COURSE}&lessonId=${lessonId}`, {
    method: 'POST',
    headers: { cookie, 'sec-fetch-site': 'same-origin', origin: site.baseUrl },
    body: form,
  })
}

const votesOf = async (questionId: string) =>
  (
    await site.db
      .selectFrom('lesson_questions')
      .select('upvotes')
      .where('id', '=', questionId)
      .executeTakeFirstOrThrow()
  ).upvotes

describe('images in posts', () => {
  it('stores an image from a learner, shows it in the post, and serves it only to those who may see the lesson', async () => {
    const response = await upload(await cookieOf(learner), PNG)
    expect(response.status).toBe(200)
    const image = (await response.json()) as { id: string; url: string; markdown: string }
    expect(image.url).toBe(`/api/learn/post-images/${image.id}`)
    const row = await site.db.selectFrom('lesson_post_images').select('storage_key').executeTakeFirstOrThrow()
    expect(row.storage_key.startsWith('private/')).toBe(true)

    const me = await callerAs(site.db, learner)
    const { id } = await me.questions.ask({ courseId: COURSE, lessonId, title: 'See this', body: image.markdown })
    const page = await me.questions.list({ courseId: COURSE, lessonId })
    expect(page.items.find((q) => q.id === id)?.html).toContain(`<img src="${image.url}"`)

    const get = async (user: TestUser | null) =>
      (await fetch(`${site.baseUrl}${image.url}`, { headers: user ? { cookie: await cookieOf(user) } : {} })).status
    expect(await get(learner)).toBe(200)
    expect(await get(instructor)).toBe(200)
    expect(await get(await createUser(site.db, { role: 'viewer' }))).toBe(200)
    expect(await get(await createUser(site.db))).toBe(404)
    expect(await get(null)).toBe(404)
    // Never through the public uploads route.
    expect((await fetch(`${site.baseUrl}/uploads/${row.storage_key}`)).status).not.toBe(200)
  })

  it('refuses a file that is not an image by its content, whatever its name and type, and strangers', async () => {
    const fake = await upload(await cookieOf(learner), Buffer.from('<svg onload="alert(1)"></svg>'), 'x.png')
    expect(fake.status).toBe(400)
    const stranger = await upload(await cookieOf(await createUser(site.db)), PNG)
    expect(stranger.status).toBe(403)
  })

  it('shows only our own post images: another site’s image is dropped', async () => {
    const me = await callerAs(site.db, learner)
    const { id } = await me.questions.ask({
      courseId: COURSE,
      lessonId,
      title: 'Pixel',
      body: '![track](https://tracker.example/p.png)',
    })
    const item = (await me.questions.list({ courseId: COURSE, lessonId })).items.find((q) => q.id === id)
    expect(item?.html).not.toContain('<img')
  })
})

describe('the reported-posts queue', () => {
  it('lists a reported post once with its reporter count; instructors of the course and staff act on it', async () => {
    const me = await callerAs(site.db, learner)
    const { id } = await me.questions.ask({ courseId: COURSE, lessonId, title: 'Spam here', body: 'buy now' })
    const other = (await buyerOfCourse(site.db, COURSE)).user
    await me.questions.report({ questionId: id, reason: 'Spam' })
    await (await callerAs(site.db, other)).questions.report({ questionId: id, reason: 'Advertising' })

    const staff = await callerAs(site.db, await createUser(site.db, { role: 'editor' }))
    const row = (await staff.questions.reportQueue({})).find((r) => r.questionId === id)
    expect(row).toMatchObject({ reporters: 2, hidden: false, courseId: COURSE, questionTitle: 'Spam here' })
    expect(row?.reasons.sort()).toEqual(['Advertising', 'Spam'])

    const teacher = await callerAs(site.db, instructor)
    expect((await teacher.questions.reportQueue({})).some((r) => r.questionId === id)).toBe(true)
    // Another course's instructor sees none of it, and may not act on it; learners are refused the queue.
    const elsewhere = await createUser(site.db)
    const otherCourse = await site.db
      .selectFrom('courses')
      .select('id')
      .where('id', '!=', COURSE)
      .executeTakeFirstOrThrow()
    await site.db
      .insertInto('course_instructors')
      .values({ course_id: otherCourse.id, user_id: elsewhere.id, role: 'co' })
      .execute()
    const outsider = await callerAs(site.db, elsewhere)
    expect((await outsider.questions.reportQueue({})).some((r) => r.questionId === id)).toBe(false)
    expect(await outsider.questions.reportQueue({ courseId: COURSE })).toEqual([])
    await expect(outsider.questions.dismissReports({ questionId: id })).rejects.toMatchObject({ code: 'FORBIDDEN' })
    await expect(outsider.questions.hide({ questionId: id, hidden: true })).rejects.toMatchObject({ code: 'FORBIDDEN' })
    await expect(me.questions.reportQueue({})).rejects.toMatchObject({ code: 'FORBIDDEN' })

    // Hide: the reporter (not the author) no longer sees it; restore brings it back; dismiss empties the queue.
    await teacher.questions.hide({ questionId: id, hidden: true })
    const seen = async () =>
      (await (await callerAs(site.db, other)).questions.list({ courseId: COURSE, lessonId })).items
    expect((await seen()).some((q) => q.id === id)).toBe(false)
    // Nor may they vote on it, report it again or read its answers by its id; its author still reads it.
    const reporter = await callerAs(site.db, other)
    const votesBefore = await votesOf(id)
    // One call at a time: a refusal must not wait unobserved while another is awaited.
    const attempts = [
      () => reporter.questions.vote({ questionId: id, up: true }),
      () => reporter.questions.report({ questionId: id, reason: 'Still spam' }),
      () => reporter.questions.answers({ questionId: id }),
    ]
    for (const attempt of attempts) {
      await expect(attempt()).rejects.toMatchObject({ code: 'NOT_FOUND' })
    }
    expect(await votesOf(id)).toBe(votesBefore)
    expect(await me.questions.answers({ questionId: id })).toEqual([])
    expect((await staff.questions.reportQueue({ courseId: COURSE })).find((r) => r.questionId === id)).toMatchObject({
      hidden: true,
      reporters: 2,
    })
    await staff.questions.hide({ questionId: id, hidden: false })
    expect((await seen()).some((q) => q.id === id)).toBe(true)
    expect(await staff.questions.dismissReports({ questionId: id })).toEqual({ dismissed: 2 })
    expect((await staff.questions.reportQueue({})).some((r) => r.questionId === id)).toBe(false)
  })

  it('shows a newly approved creator with no course an empty queue; a customer is still refused (stop 84)', async () => {
    const creator = await callerAs(site.db, await createCreator(site.db))
    expect(await creator.questions.reportQueue({})).toEqual([])
    expect(await creator.questions.reportQueue({ courseId: COURSE })).toEqual([])
    const customer = await callerAs(site.db, await createUser(site.db))
    await expect(customer.questions.reportQueue({})).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: 'Only the course’s instructors and staff can do that',
    })
  })
})
