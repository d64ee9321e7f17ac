// Verified reviews through the tRPC procedures on a real database: who may review, one review per learner and
// course, edit and delete by the author only, hiding by editors and up (audited), the aggregate the catalogue
// shows kept exact (also under concurrent writes), the course page's list, and the JSON-LD rating rule.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { insertCourse } from '../../../db/seed/factories.ts'
import { courseJsonLd } from '../../../src-client/lib/course-json-ld.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { REVIEW_MAX_LENGTH, REVIEW_MESSAGES, REVIEWS_PAGE_SIZE } from '../../../src-shared/reviews.ts'
import { createTestDatabase } from '../../support/db.ts'
import { callerAs, createUser } from '../../support/factories.ts'
import { recordLessonProgress, verifiedLearner } from '../../support/learners.ts'
import { buyerOfCourse } from '../../support/learning.ts'
import { refusalOf } from '../../support/outcome.ts'
import { raceIt } from '../../support/race.ts'

let database: DatabaseHandle
const db = () => database.db
const visitor = () => callerAs(db(), null)

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(() => database.close())

/** The aggregate as the rows give it (visible reviews only), and what the course row shows. */
async function aggregate(courseId: string) {
  const rows = await db()
    .selectFrom('course_reviews')
    .select('rating')
    .where('course_id', '=', courseId)
    .where('hidden_at', 'is', null)
    .execute()
  const sum = rows.reduce((total, row) => total + row.rating, 0)
  const course = await db()
    .selectFrom('courses')
    .select(['rating', 'review_count'])
    .where('id', '=', courseId)
    .executeTakeFirstOrThrow()
  return {
    rows: { average: rows.length ? Math.round((sum * 10) / rows.length) / 10 : 0, count: rows.length },
    shown: { average: course.rating, count: course.review_count },
  }
}

async function expectExactAggregate(courseId: string) {
  const { rows, shown } = await aggregate(courseId)
  expect(shown).toEqual(rows)
  return shown
}

/** A published course with one section and one lesson and no reviews yet. */
async function freshCourse(id: string) {
  const category = await db().selectFrom('categories').select('id').limit(1).executeTakeFirstOrThrow()
  await insertCourse(db(), {
    id,
    title: `Course ${id}`,
    category_id: category.id,
    status: 'published',
    published_at: new Date(),
  })
  const section = await db()
    .insertInto('course_sections')
    .values({ course_id: id, position: 0, title: 'Start' })
    .returning('id')
    .executeTakeFirstOrThrow()
  await db()
    .insertInto('lessons')
    .values({ course_id: id, section_id: section.id, position: 0, title: 'Welcome' })
    .execute()
  return id
}

describe('who may review', () => {
  it('refuses visitors, non-buyers and buyers who completed no lesson; accepts a buyer who completed one', async () => {
    const courseId = await freshCourse('review-rules')
    const content = { courseId, rating: 4, body: 'Good course' }
    expect(await refusalOf((await visitor()).reviews.create(content))).toBe('UNAUTHORIZED: User not authenticated')
    expect((await (await visitor()).reviews.mine({ courseId })).blocker).toBe('signed_out')

    const stranger = await createUser(db())
    expect(await refusalOf((await callerAs(db(), stranger)).reviews.create(content))).toBe(
      `FORBIDDEN: ${REVIEW_MESSAGES.no_access}`,
    )

    const buyer = await createUser(db())
    await buyerOfCourse(db(), courseId, buyer)
    const asBuyer = await callerAs(db(), buyer)
    expect(await refusalOf(asBuyer.reviews.create(content))).toBe(`FORBIDDEN: ${REVIEW_MESSAGES.no_completed_lesson}`)
    // Opening a lesson (progress without completion) is not enough.
    await recordLessonProgress(db(), buyer.id, courseId, false)
    expect((await asBuyer.reviews.mine({ courseId })).blocker).toBe('no_completed_lesson')
    expect(await refusalOf(asBuyer.reviews.create(content))).toBe(`FORBIDDEN: ${REVIEW_MESSAGES.no_completed_lesson}`)

    await db()
      .updateTable('lesson_progress')
      .set({ completed_at: new Date() })
      .where('user_id', '=', buyer.id)
      .execute()
    expect((await asBuyer.reviews.mine({ courseId })).blocker).toBeNull()
    const review = await asBuyer.reviews.create(content)
    expect(review).toMatchObject({ rating: 4, body: 'Good course', author: 'Test U.', hidden: false, edited: false })
    expect((await asBuyer.reviews.mine({ courseId })).review?.id).toBe(review.id)
    expect(await refusalOf(asBuyer.reviews.create({ courseId: 'no-such-course', rating: 5 }))).toBe(
      `FORBIDDEN: ${REVIEW_MESSAGES.no_access}`,
    )
  })

  it('checks stars (1–5, whole) and text (optional, at most 2,000 characters, trimmed)', async () => {
    const courseId = await freshCourse('review-validation')
    const learner = await verifiedLearner(db(), courseId)
    const caller = await callerAs(db(), learner)
    for (const rating of [0, 6, 4.5]) {
      const outcome = await refusalOf(caller.reviews.create({ courseId, rating, body: '' }))
      expect(outcome).toMatch(/^BAD_REQUEST: /)
      expect(outcome).toContain(REVIEW_MESSAGES.ratingRequired)
    }
    const tooLong = await refusalOf(
      caller.reviews.create({ courseId, rating: 5, body: 'x'.repeat(REVIEW_MAX_LENGTH + 1) }),
    )
    expect(tooLong).toContain(REVIEW_MESSAGES.tooLong)
    const review = await caller.reviews.create({ courseId, rating: 5, body: `  ${'y'.repeat(REVIEW_MAX_LENGTH)}  ` })
    expect(review.body).toBe('y'.repeat(REVIEW_MAX_LENGTH))
    const withoutText = await verifiedLearner(db(), courseId)
    expect((await (await callerAs(db(), withoutText)).reviews.create({ courseId, rating: 3 })).body).toBe('')
  })
})

describe('one review per learner and course, changed only by its author', () => {
  // Decided by a unique key, which PGlite enforces too: this runs on both databases.
  it('refuses a second review, even two sent at once', async () => {
    const courseId = await freshCourse('review-once')
    const learner = await verifiedLearner(db(), courseId)
    const caller = await callerAs(db(), learner)
    const outcomes = await Promise.all(
      [5, 4, 3].map((rating) => refusalOf(caller.reviews.create({ courseId, rating }))),
    )
    expect(outcomes.filter((o) => o === 'OK')).toHaveLength(1)
    expect(outcomes.filter((o) => o === `CONFLICT: ${REVIEW_MESSAGES.duplicate}`)).toHaveLength(2)
    const rows = await db().selectFrom('course_reviews').select('id').where('course_id', '=', courseId).execute()
    expect(rows).toHaveLength(1)
    expect((await expectExactAggregate(courseId)).count).toBe(1)
  })

  it('lets the author edit and delete; anyone else is refused and changes nothing', async () => {
    const courseId = await freshCourse('review-own')
    const author = await verifiedLearner(db(), courseId, { firstName: 'Jane', lastName: 'doe' })
    const other = await verifiedLearner(db(), courseId)
    const asAuthor = await callerAs(db(), author)
    const asOther = await callerAs(db(), other)
    const review = await asAuthor.reviews.create({ courseId, rating: 2, body: 'Slow start' })
    expect(review.author).toBe('Jane D.')
    await asOther.reviews.create({ courseId, rating: 4 })
    expect(await expectExactAggregate(courseId)).toEqual({ average: 3, count: 2 })

    const admin = await callerAs(db(), await createUser(db(), { role: 'admin' }))
    const attempts = [
      () => asOther.reviews.update({ id: review.id, rating: 1, body: 'Hijacked' }),
      () => asOther.reviews.delete({ id: review.id }),
      () => admin.reviews.delete({ id: review.id }),
    ]
    for (const attempt of attempts) {
      expect(await refusalOf(attempt())).toBe(`FORBIDDEN: ${REVIEW_MESSAGES.notYours}`)
    }
    expect((await asAuthor.reviews.mine({ courseId })).review).toMatchObject({ rating: 2, body: 'Slow start' })

    await new Promise((resolve) => setTimeout(resolve, 1100))
    const edited = await asAuthor.reviews.update({ id: review.id, rating: 5, body: 'Got much better' })
    expect(edited).toMatchObject({ rating: 5, body: 'Got much better', edited: true })
    expect(await expectExactAggregate(courseId)).toEqual({ average: 4.5, count: 2 })

    expect(await asAuthor.reviews.delete({ id: review.id })).toEqual({ id: review.id, courseId })
    expect((await asAuthor.reviews.mine({ courseId })).review).toBeNull()
    expect(await expectExactAggregate(courseId)).toEqual({ average: 4, count: 1 })
    expect(await refusalOf(asAuthor.reviews.update({ id: review.id, rating: 3 }))).toBe(
      `NOT_FOUND: ${REVIEW_MESSAGES.notFound}`,
    )
    // Deleted, the learner may write a new one.
    await asAuthor.reviews.create({ courseId, rating: 3 })
    expect(await expectExactAggregate(courseId)).toEqual({ average: 3.5, count: 2 })
  })
})

describe('hiding a review', () => {
  it('is for editors and up: the review leaves the list and the aggregate, the author still sees it, audited once', async () => {
    const courseId = await freshCourse('review-hide')
    const author = await verifiedLearner(db(), courseId)
    const keeper = await verifiedLearner(db(), courseId)
    const review = await (await callerAs(db(), author)).reviews.create({ courseId, rating: 1, body: 'Spam link here' })
    await (await callerAs(db(), keeper)).reviews.create({ courseId, rating: 5 })
    expect(await expectExactAggregate(courseId)).toEqual({ average: 3, count: 2 })

    for (const role of ['customer', 'viewer'] as const) {
      const caller = await callerAs(db(), await createUser(db(), { role }))
      expect(await refusalOf(caller.admin.reviews.setHidden({ id: review.id, hidden: true }))).toMatch(/^FORBIDDEN: /)
    }
    expect(await refusalOf((await visitor()).admin.reviews.setHidden({ id: review.id, hidden: true }))).toMatch(
      /^UNAUTHORIZED: /,
    )
    expect(await expectExactAggregate(courseId)).toEqual({ average: 3, count: 2 })

    const editor = await createUser(db(), { role: 'editor', email: `editor-${Date.now()}@example.test` })
    const asEditor = await callerAs(db(), editor)
    await asEditor.admin.reviews.setHidden({ id: review.id, hidden: true })
    await asEditor.admin.reviews.setHidden({ id: review.id, hidden: true })
    expect(await expectExactAggregate(courseId)).toEqual({ average: 5, count: 1 })
    const list = await (await visitor()).reviews.list({ courseId })
    expect(list.items.map((item) => item.id)).not.toContain(review.id)
    expect(list.total).toBe(1)
    expect((await (await callerAs(db(), author)).reviews.mine({ courseId })).review).toMatchObject({ hidden: true })
    const staffList = await asEditor.admin.reviews.list({ courseId, visibility: 'hidden' })
    expect(staffList.items.map((item) => item.id)).toEqual([review.id])

    const audit = await db()
      .selectFrom('audit_log')
      .select(['actor_id', 'action', 'entity_type', 'after'])
      .where('entity_id', '=', review.id)
      .orderBy('created_at')
      .execute()
    expect(audit).toEqual([
      {
        actor_id: editor.id,
        action: 'review.hide',
        entity_type: 'review',
        after: { courseId, rating: 1, hidden: true },
      },
    ])

    // Shown again by an admin: back in the aggregate, audited too.
    const admin = await createUser(db(), { role: 'admin' })
    await (await callerAs(db(), admin)).admin.reviews.setHidden({ id: review.id, hidden: false })
    expect(await expectExactAggregate(courseId)).toEqual({ average: 3, count: 2 })
    const actions = await db().selectFrom('audit_log').select('action').where('entity_id', '=', review.id).execute()
    expect(actions.map((row) => row.action).sort()).toEqual(['review.hide', 'review.show'])
  })
})

describe('the aggregate the catalogue shows', () => {
  it('is the visible reviews’ average to one decimal, count and per-star bars, on cards, filters and the page', async () => {
    const courseId = await freshCourse('review-aggregate')
    const anyone = await visitor()
    expect(await anyone.reviews.summary({ courseId })).toEqual({
      average: 0,
      count: 0,
      stars: [5, 4, 3, 2, 1].map((stars) => ({ stars, count: 0 })),
    })
    const fourAndUp = async () =>
      (await anyone.catalog.search({})).facets.rating.find((facet) => facet.floor === 4)?.count ?? 0
    const before = { facet: await fourAndUp(), total: (await anyone.catalog.search({ rating: 4 })).total }
    for (const rating of [5, 4, 4]) {
      const learner = await verifiedLearner(db(), courseId)
      await (await callerAs(db(), learner)).reviews.create({ courseId, rating })
    }
    expect(await anyone.reviews.summary({ courseId })).toEqual({
      average: 4.3,
      count: 3,
      stars: [
        { stars: 5, count: 1 },
        { stars: 4, count: 2 },
        { stars: 3, count: 0 },
        { stars: 2, count: 0 },
        { stars: 1, count: 0 },
      ],
    })
    const page = await anyone.catalog.course({ id: courseId })
    expect(page).toMatchObject({ rating: 4.3, reviewCount: 3 })
    const search = await anyone.catalog.search({ search: 'Course review-aggregate', rating: 4 })
    expect(search.items.find((item) => item.id === courseId)).toMatchObject({ rating: 4.3, reviewCount: 3 })
    // Unrated before, the course now counts in "4 & up" and sorts among the highest rated by its real average.
    expect(await fourAndUp()).toBe(before.facet + 1)
    expect((await anyone.catalog.search({ rating: 4 })).total).toBe(before.total + 1)
    const byRating = (await anyone.catalog.search({ sort: 'rating', pageSize: 48 })).items
    const index = byRating.findIndex((item) => item.id === courseId)
    expect(byRating[index - 1]?.rating ?? 5).toBeGreaterThanOrEqual(4.3)
    expect(byRating[index + 1]?.rating ?? 0).toBeLessThanOrEqual(4.3)
  })

  raceIt('stays exact under concurrent reviews, edits, deletions and hiding', async () => {
    const courseId = 'nodejs-api-development'
    const learners = await Promise.all(Array.from({ length: 12 }, () => verifiedLearner(db(), courseId)))
    const callers = await Promise.all(learners.map((learner) => callerAs(db(), learner)))
    const created = await Promise.all(
      callers.map((caller, i) => caller.reviews.create({ courseId, rating: (i % 5) + 1, body: `Review ${i}` })),
    )
    await expectExactAggregate(courseId)
    const editor = await callerAs(db(), await createUser(db(), { role: 'editor' }))
    const more = await Promise.all(Array.from({ length: 8 }, () => verifiedLearner(db(), courseId)))
    await Promise.all([
      ...created.slice(0, 4).map((review, i) => callers[i]!.reviews.update({ id: review.id, rating: 5 })),
      ...created.slice(4, 7).map((review, i) => callers[i + 4]!.reviews.delete({ id: review.id })),
      ...created.slice(7, 9).map((review) => editor.admin.reviews.setHidden({ id: review.id, hidden: true })),
      ...more.map(async (learner, i) =>
        (await callerAs(db(), learner)).reviews.create({ courseId, rating: (i % 2) + 3 }),
      ),
    ])
    const shown = await expectExactAggregate(courseId)
    const seeded = await db()
      .selectFrom('course_reviews')
      .select(sql<string>`count(*)`.as('n'))
      .where('course_id', '=', courseId)
      .where('hidden_at', 'is', null)
      .executeTakeFirstOrThrow()
    expect(shown.count).toBe(Number(seeded.n))
    expect((await (await visitor()).reviews.summary({ courseId })).count).toBe(shown.count)
  })
})

describe('the course page', () => {
  it('lists visible reviews newest first, ten a page, by first name and last initial', async () => {
    const courseId = await freshCourse('review-list')
    for (let i = 0; i < REVIEWS_PAGE_SIZE + 2; i++) {
      const learner = await verifiedLearner(db(), courseId, { firstName: `Learner${i}`, lastName: 'Zed' })
      await (await callerAs(db(), learner)).reviews.create({ courseId, rating: 4, body: `Number ${i}` })
    }
    const anyone = await visitor()
    const first = await anyone.reviews.list({ courseId })
    expect(first).toMatchObject({ total: REVIEWS_PAGE_SIZE + 2, page: 1, pageCount: 2 })
    expect(first.items).toHaveLength(REVIEWS_PAGE_SIZE)
    expect(first.items[0]).toMatchObject({
      author: `Learner${REVIEWS_PAGE_SIZE + 1} Z.`,
      body: `Number ${REVIEWS_PAGE_SIZE + 1}`,
    })
    const dates = first.items.map((item) => item.createdAt)
    expect(dates).toEqual([...dates].sort().reverse())
    const second = await anyone.reviews.list({ courseId, page: 2 })
    expect(second.items.map((item) => item.body)).toEqual(['Number 1', 'Number 0'])
    // Nothing in the public list says who the learner is beyond the initial.
    expect(JSON.stringify(first)).not.toMatch(/Zed|@example/)
  }, 60_000) // twelve learners and reviews: past the default 20 s on a loaded machine

  it('gives search engines an AggregateRating only when the course has at least one review', async () => {
    const courseId = await freshCourse('review-json-ld')
    const anyone = await visitor()
    const before = courseJsonLd((await anyone.catalog.course({ id: courseId }))!, 'https://shop.example')
    expect(before).not.toHaveProperty('aggregateRating')
    const learner = await verifiedLearner(db(), courseId)
    const review = await (await callerAs(db(), learner)).reviews.create({ courseId, rating: 4 })
    const after = courseJsonLd((await anyone.catalog.course({ id: courseId }))!, 'https://shop.example')
    expect(after.aggregateRating).toEqual({
      '@type': 'AggregateRating',
      ratingValue: 4,
      reviewCount: 1,
      bestRating: 5,
      worstRating: 1,
    })
    await (await callerAs(db(), learner)).reviews.delete({ id: review.id })
    const gone = courseJsonLd((await anyone.catalog.course({ id: courseId }))!, 'https://shop.example')
    expect(gone).not.toHaveProperty('aggregateRating')
  })
})
