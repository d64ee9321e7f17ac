// Questions under lessons (issue 33): who may post, read and moderate; Markdown sanitised; upvotes counted once;
// sorts, search and keyset pages; the asker mailed once when answered; hidden posts seen only by their author
// (marked) and moderators; a learner who lost the course keeps their posts visible but can no longer post; posting is
// rate limited per person; the instructors' daily digest goes once per day and honours the opt-out.
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { revoke } from '../../../src-server/access/ledger.ts'
import { sendQuestionDigests } from '../../../src-server/flows/lesson-questions-digest.ts'
import { advanceClock, resetClock } from '../../../src-server/kernel/clock.ts'
import { callerAs, createUser, type TestUser } from '../../support/factories.ts'
import { buyerOfCourse, lessonsOf } from '../../support/learning.ts'
import { serveForThisFile } from '../../support/test-server.ts'

const site = serveForThisFile()
const COURSE = 'modern-react-typescript'
let learner: { user: TestUser; orderId: string }
let instructor: TestUser
let lessonId: string

afterEach(() => resetClock())

beforeAll(async () => {
  learner = await buyerOfCourse(site.db, COURSE)
  instructor = await createUser(site.db, { firstName: 'Ina', lastName: 'Structor' })
  await site.db
    .insertInto('course_instructors')
    .values({ course_id: COURSE, user_id: instructor.id, role: 'co' })
    .execute()
  const lessons = await lessonsOf(site.db, COURSE)
  lessonId = (lessons.find((l) => !l.is_preview) ?? lessons[0])?.id ?? ''
})

const as = (user: TestUser | null) => callerAs(site.db, user)
const mails = (to: string, kind: string) =>
  site.db
    .selectFrom('mail_outbox')
    .select(['subject', 'text_body'])
    .where('to_address', '=', to)
    .where('kind', '=', kind)
    .execute()

describe('asking and answering', () => {
  it('a learner asks, the instructor answers and marks it answered, the learner is mailed once', async () => {
    const me = await as(learner.user)
    const { id } = await me.questions.ask({
      courseId: COURSE,
      lessonId,
      title: 'Why does my hook run twice?',
      body: 'In **strict mode** <script>alert(1)</script> [x](javascript:alert(1))',
    })
    const page = await me.questions.list({ courseId: COURSE, lessonId })
    const mine = page.items.find((q) => q.id === id)
    expect(mine?.html).toContain('<strong>strict mode</strong>')
    expect(mine?.html).not.toContain('<script')
    expect(mine?.html).not.toContain('href="javascript')
    expect(mine?.author).toBe(`${learner.user.firstName} ${learner.user.lastName[0]}.`)

    const teacher = await as(instructor)
    await teacher.questions.answer({ questionId: id, body: 'Strict mode mounts twice in development.' })
    await teacher.questions.markAnswered({ questionId: id, answered: true })
    await teacher.questions.markAnswered({ questionId: id, answered: false })
    await teacher.questions.markAnswered({ questionId: id, answered: true })
    const sent = await mails(learner.user.email, 'question_answered')
    expect(sent).toHaveLength(1)
    expect(sent[0]?.subject).toContain('Why does my hook run twice?')
    const answers = await me.questions.answers({ questionId: id })
    expect(answers.map((a) => a.html)).toEqual(['<p>Strict mode mounts twice in development.</p>\n'])
    // A learner cannot mark answered or hide.
    await expect(me.questions.markAnswered({ questionId: id, answered: false })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    })
    await expect(me.questions.hide({ questionId: id, hidden: true })).rejects.toMatchObject({ code: 'FORBIDDEN' })
  })

  it('refuses strangers and visitors; staff may post', async () => {
    const stranger = await as(await createUser(site.db))
    await expect(stranger.questions.list({ courseId: COURSE, lessonId })).rejects.toMatchObject({ code: 'FORBIDDEN' })
    await expect(stranger.questions.ask({ courseId: COURSE, lessonId, title: 'Hi', body: '' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    })
    await expect((await as(null)).questions.list({ courseId: COURSE, lessonId })).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    })
    const staff = await as(await createUser(site.db, { role: 'viewer' }))
    expect((await staff.questions.ask({ courseId: COURSE, lessonId, title: 'Staff note', body: '' })).id).toBeTruthy()
  })
})

describe('upvotes, sorts, search and pages', () => {
  it('counts an upvote once per person, sorts by votes, lists unanswered, searches the course, pages by keyset', async () => {
    const a = await buyerOfCourse(site.db, COURSE)
    const b = await buyerOfCourse(site.db, COURSE)
    const askA = await as(a.user)
    const ids: string[] = []
    for (const title of ['zebra alpha', 'zebra beta', 'zebra gamma']) {
      ids.push((await askA.questions.ask({ courseId: COURSE, lessonId, title, body: 'needle-7731' })).id)
      await advanceClock(1)
    }
    const askB = await as(b.user)
    await askB.questions.vote({ questionId: ids[0] ?? '', up: true })
    const twice = await askB.questions.vote({ questionId: ids[0] ?? '', up: true })
    expect(twice.upvotes).toBe(1)
    await askA.questions.vote({ questionId: ids[0] ?? '', up: true })
    await askA.questions.vote({ questionId: ids[1] ?? '', up: true })

    const votes = await askB.questions.list({ courseId: COURSE, search: 'needle-7731', sort: 'votes' })
    expect(votes.items.map((q) => [q.title, q.upvotes])).toEqual([
      ['zebra alpha', 2],
      ['zebra beta', 1],
      ['zebra gamma', 0],
    ])
    expect(votes.items[0]?.voted).toBe(true)

    await (await as(instructor)).questions.markAnswered({ questionId: ids[2] ?? '', answered: true })
    const open = await askB.questions.list({ courseId: COURSE, search: 'needle-7731', sort: 'unanswered' })
    expect(open.items.map((q) => q.title)).toEqual(['zebra beta', 'zebra alpha'])

    // Newest first, two per page, across the pages exactly once; '%' is a literal in a search.
    const seen: string[] = []
    let cursor: string | undefined
    do {
      const page = await askB.questions.list({ courseId: COURSE, search: 'needle-7731', limit: 2, cursor })
      seen.push(...page.items.map((q) => q.title))
      cursor = page.nextCursor ?? undefined
    } while (cursor)
    expect(seen).toEqual(['zebra gamma', 'zebra beta', 'zebra alpha'])
    expect((await askB.questions.list({ courseId: COURSE, search: '%' })).items).toEqual([])
    await expect(askB.questions.list({ courseId: COURSE, cursor: 'garbage' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    })
  })
})

describe('moderation and access', () => {
  it('hides a post from others while its author sees it marked; reports once; a removed learner cannot post', async () => {
    const author = await buyerOfCourse(site.db, COURSE)
    const other = await buyerOfCourse(site.db, COURSE)
    const mine = await as(author.user)
    const { id } = await mine.questions.ask({ courseId: COURSE, lessonId, title: 'rude words 4411', body: '' })
    const reporter = await as(other.user)
    await reporter.questions.report({ questionId: id, reason: 'Rude' })
    await reporter.questions.report({ questionId: id, reason: 'Rude again' })
    const teacher = await as(instructor)
    expect((await teacher.questions.reports({ courseId: COURSE })).filter((r) => r.questionId === id)).toHaveLength(1)
    await teacher.questions.hide({ questionId: id, hidden: true })

    const search = { courseId: COURSE, search: 'rude words 4411' }
    expect((await reporter.questions.list(search)).items).toEqual([])
    expect((await mine.questions.list(search)).items.map((q) => q.hidden)).toEqual([true])
    expect((await teacher.questions.list(search)).items.map((q) => q.hidden)).toEqual([true])
    await expect(reporter.questions.answers({ questionId: id })).rejects.toMatchObject({ code: 'NOT_FOUND' })

    // Refunded: the post stays for others, the author can no longer post (nor read).
    await teacher.questions.hide({ questionId: id, hidden: false })
    await revoke(site.db, { orderId: author.orderId }, 'refund')
    expect((await reporter.questions.list(search)).items.map((q) => q.author)).toEqual([
      `${author.user.firstName} ${author.user.lastName[0]}.`,
    ])
    await expect(mine.questions.ask({ courseId: COURSE, lessonId, title: 'again', body: '' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    })
    await expect(mine.questions.answer({ questionId: id, body: 'me' })).rejects.toMatchObject({ code: 'FORBIDDEN' })
  })

  it('rate limits posts per person', async () => {
    const { user } = await buyerOfCourse(site.db, COURSE)
    const me = await as(user)
    for (let i = 0; i < 10; i++) await me.questions.ask({ courseId: COURSE, lessonId, title: `q${i}`, body: '' })
    await expect(me.questions.ask({ courseId: COURSE, lessonId, title: 'one more', body: '' })).rejects.toMatchObject({
      code: 'TOO_MANY_REQUESTS',
    })
  })
})

describe('the instructors’ daily digest', () => {
  it('mails each instructor once a day with the previous day’s questions, unless they opted out', async () => {
    const optedOut = await createUser(site.db)
    await site.db
      .insertInto('course_instructors')
      .values({ course_id: COURSE, user_id: optedOut.id, role: 'co' })
      .execute()
    await (await as(optedOut)).questions.setDigest({ courseId: COURSE, optOut: true })
    expect((await (await as(optedOut)).questions.digest({ courseId: COURSE })).optedOut).toBe(true)
    const asker = await as((await buyerOfCourse(site.db, COURSE)).user)
    await asker.questions.ask({ courseId: COURSE, lessonId, title: 'Digest me 5521', body: '' })
    await advanceClock(86_400)
    const [first, again] = [
      await sendQuestionDigests(site.db, 'http://x'),
      await sendQuestionDigests(site.db, 'http://x'),
    ]
    expect(first).toBeGreaterThan(0)
    expect(again).toBe(0)
    const digests = await mails(instructor.email, 'question_digest')
    expect(digests).toHaveLength(1)
    expect(digests[0]?.text_body).toContain('Digest me 5521')
    expect(await mails(optedOut.email, 'question_digest')).toHaveLength(0)

    // One click in the digest (RFC 8058) stops this course's digest for this instructor, as the studio's switch does.
    const [sent] = await site.db
      .selectFrom('mail_outbox')
      .select(['list_unsubscribe', 'text_body'])
      .where('to_address', '=', instructor.email)
      .where('kind', '=', 'question_digest')
      .execute()
    const link = new URL(sent?.list_unsubscribe ?? '')
    expect(sent?.text_body).toContain(`Stop this daily e-mail for this course: ${sent?.list_unsubscribe}`)
    const followed = await fetch(`${site.baseUrl}${link.pathname}${link.search}`, { redirect: 'manual' })
    expect(followed.headers.get('location')).toBe(
      `/mail/unsubscribe?list=question_digest&token=${link.searchParams.get('token')}`,
    )
    const posted = await fetch(`${site.baseUrl}${link.pathname}${link.search}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    })
    expect(posted.status).toBe(200)
    expect(await posted.text()).toContain('no longer get the daily digest of this course’s new questions')
    expect((await (await as(instructor)).questions.digest({ courseId: COURSE })).optedOut).toBe(true)
  })
})
