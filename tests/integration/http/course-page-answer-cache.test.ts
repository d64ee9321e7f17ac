// catalog.course's answers are kept, serialised, with the catalogue snapshot (decision 0072): a repeated call gets the
// same bytes, and a change to anything the page shows, made anywhere (here straight in the database, as psql or
// another node would), shows on the next call: the course row, its instructor's card, its sections and lessons.
// Each check fails if a table's trigger on catalog_version is missing.
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { SESSION_COOKIE } from '../../../src-server/auth/session.ts'
import { catalogueAnswerSlot } from '../../../src-server/trpc/answer-cache.ts'
import { createCreator, createCreatorCourse } from '../../support/creator-courses.ts'
import { setCookieFor } from '../../support/http.ts'
import { serveForThisFile } from '../../support/test-server.ts'

const site = serveForThisFile()

async function coursePage(id: string, headers: Record<string, string> = {}) {
  const query = `batch=1&input=${encodeURIComponent(JSON.stringify({ 0: { id } }))}`
  const response = await fetch(`${site.baseUrl}/trpc/catalog.course?${query}`, { headers })
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    body: await response.text(),
    sessionCookie: setCookieFor(response, SESSION_COOKIE),
  }
}

interface Page {
  title: string
  instructorProfile: { title: string; bio: string }
  curriculum: { id: string; title: string; lessons: { id: string; title: string }[] }[]
}
const page = async (id: string) => {
  const answer = await coursePage(id)
  expect(answer.status).toBe(200)
  return (JSON.parse(answer.body) as [{ result: { data: Page | null } }])[0].result.data
}
const lessonTitles = (data: Page | null) => data?.curriculum.flatMap((section) => section.lessons.map((l) => l.title))

async function publishedCourse() {
  const creator = await createCreator(site.db)
  const course = await createCreatorCourse(site.db, creator, { status: 'published', lessons: 2 })
  const { instructor_id } = await site.db
    .selectFrom('courses')
    .select('instructor_id')
    .where('id', '=', course.id)
    .executeTakeFirstOrThrow()
  return { ...course, instructorId: instructor_id! }
}

describe('the course page answer cache', () => {
  it('answers a repeated call with the same bytes, and another spelling of the id with them too', async () => {
    const course = await publishedCourse()
    const first = await coursePage(course.id)
    expect(first.status).toBe(200)
    expect(first.contentType).toMatch(/^application\/json/)
    expect(await coursePage(course.id)).toEqual(first)
    expect(await coursePage(`  ${course.id} `)).toEqual(first) // the schema trims: one key
  })

  it("shows a change to the instructor's card on the next call", async () => {
    const course = await publishedCourse()
    await page(course.id)
    await page(course.id)
    await sql`update instructors set title = 'Principal engineer', bio = 'Changed behind the back'
      where id = ${course.instructorId}`.execute(site.db)
    expect((await page(course.id))?.instructorProfile).toMatchObject({
      title: 'Principal engineer',
      bio: 'Changed behind the back',
    })
  })

  it('shows an added lesson, a renamed section, a lesson sent back to review and a removed lesson on the next call', async () => {
    const course = await publishedCourse()
    expect(lessonTitles(await page(course.id))).toEqual(['Lesson 1', 'Lesson 2'])
    await sql`insert into lessons (course_id, section_id, position, title, duration_seconds, kind, body_markdown)
      values (${course.id}, ${course.sectionId}, 5, 'Added behind the back', 60, 'article', 'Text')`.execute(site.db)
    expect(lessonTitles(await page(course.id))).toEqual(['Lesson 1', 'Lesson 2', 'Added behind the back'])

    await sql`update course_sections set title = 'Renamed section' where id = ${course.sectionId}`.execute(site.db)
    expect((await page(course.id))?.curriculum.map((section) => section.title)).toEqual(['Renamed section'])

    await sql`update lessons set pending_review = true where id = ${course.lessonIds[0]!}`.execute(site.db)
    expect(lessonTitles(await page(course.id))).toEqual(['Lesson 2', 'Added behind the back'])

    await sql`delete from lessons where id = ${course.lessonIds[1]!}`.execute(site.db)
    expect(lessonTitles(await page(course.id))).toEqual(['Added behind the back'])
  })

  it('shows a change to the course row and a withdrawn course on the next call', async () => {
    const course = await publishedCourse()
    await page(course.id)
    await sql`update courses set title = 'Retitled behind the back' where id = ${course.id}`.execute(site.db)
    expect((await page(course.id))?.title).toBe('Retitled behind the back')
    await sql`update courses set status = 'unpublished' where id = ${course.id}`.execute(site.db)
    expect(await page(course.id)).toBeNull()
    await sql`update courses set status = 'published' where id = ${course.id}`.execute(site.db)
    expect((await page(course.id))?.title).toBe('Retitled behind the back')
  })

  it('still refuses a bad input after good ones were kept', async () => {
    const course = await publishedCourse()
    await page(course.id)
    const refused = await coursePage('')
    expect(refused.status).toBe(400)
    expect(JSON.parse(refused.body)[0].error.data.code).toBe('BAD_REQUEST')
    expect((await coursePage('de\u0000sign')).status).toBe(400)
    // Asked again, the same texts are refused again: what is remembered of a text is that it takes no kept answer.
    const again = await coursePage('')
    expect(again.status).toBe(400)
    expect(JSON.parse(again.body)[0].error.data.zodError).toEqual(JSON.parse(refused.body)[0].error.data.zodError)
    expect((await coursePage('de\u0000sign')).status).toBe(400)
  })

  it('still resolves the session of a caller with a cookie: a kept answer clears a stale session cookie', async () => {
    const course = await publishedCourse()
    const kept = await coursePage(course.id)
    expect(await coursePage(course.id)).toEqual(kept) // kept now, for callers without a session
    const stale = await coursePage(course.id, { cookie: `${SESSION_COOKIE}=no-such-session.token` })
    expect(stale.body).toBe(kept.body)
    // Without the session's resolution (an answer sent before the context is built) the cookie would stay.
    expect(stale.sessionCookie).toMatch(new RegExp(`^${SESSION_COOKIE}=;.*Max-Age=0`, 'i'))
  })

  it('never keeps a not-found answer (made-up ids cannot push real pages out)', async () => {
    const slot = await catalogueAnswerSlot({ db: site.db }, 'catalog.course', { id: 'no-such-course' })
    slot?.store(Buffer.from('[{"result":{"data":null}}]'), null)
    expect(
      (await catalogueAnswerSlot({ db: site.db }, 'catalog.course', { id: 'no-such-course' }))?.body,
    ).toBeUndefined()
    slot?.store(Buffer.from('[{"result":{"data":{}}}]'), {})
    expect(
      (await catalogueAnswerSlot({ db: site.db }, 'catalog.course', { id: 'no-such-course' }))?.body?.toString(),
    ).toBe('[{"result":{"data":{}}}]')
  })
})
