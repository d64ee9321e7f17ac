// Instructor profiles: the public page's figures from real rows (learners summed over published courses, the
// average of every visible review), not found for an unknown slug; the creator edits their own profile only.
import type { TRPCError } from '@trpc/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { insertCourse } from '../../../db/seed/factories.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { createTestDatabase } from '../../support/db.ts'
import { callerAs, createUser, type TestUser } from '../../support/factories.ts'
import { buyerOfCourse } from '../../support/learning.ts'

let database: DatabaseHandle
beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(async () => {
  await database.close()
})

const PROPOSAL = 'I will teach practical accessibility testing for front-end developers with real examples. '.repeat(3)

async function newCreator(firstName: string, lastName: string) {
  const user = await createUser(database.db, { firstName, lastName })
  const caller = await callerAs(database.db, user)
  const { id } = await caller.creators.submitApplication({
    headline: 'Accessibility specialist',
    categories: ['development'],
    proposal: PROPOSAL,
    links: {},
  })
  const admin = await callerAs(database.db, await createUser(database.db, { role: 'admin' }))
  await admin.admin.creatorApplications.approve({ id })
  const profile = await caller.creators.profile()
  return { user, caller, profile }
}

async function review(courseId: string, rating: number, hidden = false) {
  const author = await createUser(database.db)
  await database.db
    .insertInto('course_reviews')
    .values({ course_id: courseId, user_id: author.id, rating, hidden_at: hidden ? new Date() : null })
    .execute()
}

describe('creators.instructor', () => {
  it('answers null for an unknown slug', async () => {
    expect(await (await callerAs(database.db, null)).creators.instructor({ slug: 'nobody-here' })).toBeNull()
  })

  it('shows published courses, learners summed over them and the average of every visible review', async () => {
    const { user, profile } = await newCreator('Grace', 'Hopper')
    const category = await database.db.selectFrom('categories').select('id').executeTakeFirstOrThrow()
    const course = (id: string, status: 'published' | 'draft') =>
      insertCourse(database.db, {
        id,
        title: `Course ${id}`,
        category_id: category.id,
        instructor_id: profile.instructorId,
        instructor_name: profile.name,
        owner_id: user.id,
        status,
        published_at: status === 'published' ? new Date() : null,
      })
    await course('gh-one', 'published')
    await course('gh-two', 'published')
    await course('gh-draft', 'draft')
    await buyerOfCourse(database.db, 'gh-one')
    await buyerOfCourse(database.db, 'gh-one')
    await buyerOfCourse(database.db, 'gh-two')
    await database.db.updateTable('courses').set({ students_count: 50 }).where('id', '=', 'gh-draft').execute()
    await review('gh-one', 5)
    await review('gh-one', 4)
    await review('gh-two', 1)
    await review('gh-two', 5, true) // hidden: counts nowhere
    await review('gh-draft', 5) // not published: not on the page

    const page = await (await callerAs(database.db, null)).creators.instructor({ slug: profile.slug })
    expect(page?.name).toBe('Grace Hopper')
    expect(page?.courses.map((c) => c.id).sort()).toEqual(['gh-one', 'gh-two'])
    expect(page?.totalLearners).toBe(3)
    // Each review counts once: (5 + 4 + 1) / 3, not the mean of the courses' means (2.75).
    expect(page?.rating).toEqual({ average: 3.3, count: 3 })
    expect(page?.isHouse).toBe(false)
  })

  it("links a course page's instructor card to the profile", async () => {
    const house = await database.db
      .selectFrom('courses')
      .innerJoin('instructors', 'instructors.id', 'courses.instructor_id')
      .select(['courses.id', 'instructors.slug'])
      .where('courses.status', '=', 'published')
      // A seeded house instructor's course (other tests, in any order, publish creators' courses too).
      .where('instructors.user_id', 'is', null)
      .orderBy('courses.id')
      .executeTakeFirstOrThrow()
    const visitor = await callerAs(database.db, null)
    const detail = await visitor.catalog.course({ id: house.id })
    expect(detail?.instructorProfile.slug).toBe(house.slug)
    const page = await visitor.creators.instructor({ slug: house.slug })
    expect(page?.isHouse).toBe(true)
    expect(page?.courses.map((c) => c.id)).toContain(house.id)
  })
})

describe('creators.updateProfile', () => {
  it("saves the creator's own profile (and the name on their courses); bounds are checked", async () => {
    const { user, caller, profile } = await newCreator('Alan', 'Turing')
    const category = await database.db.selectFrom('categories').select('id').executeTakeFirstOrThrow()
    await insertCourse(database.db, {
      id: 'at-course',
      title: 'Computable numbers',
      category_id: category.id,
      instructor_id: profile.instructorId,
      instructor_name: profile.name,
      owner_id: user.id,
    })
    const other = await newCreator('Joan', 'Clarke')
    const saved = await caller.creators.updateProfile({
      name: 'Alan M. Turing',
      title: 'Mathematician',
      bio: '**Bold** ideas <script>alert(1)</script>',
      links: { website: 'https://turing.example', youtube: 'https://www.youtube.com/@turing' },
    })
    expect(saved).toMatchObject({ name: 'Alan M. Turing', title: 'Mathematician', slug: profile.slug })
    const page = await (await callerAs(database.db, null)).creators.instructor({ slug: profile.slug })
    expect(page?.bioHtml).toContain('<strong>Bold</strong>')
    expect(page?.bioHtml).not.toContain('<script')
    expect(page?.links).toEqual({ website: 'https://turing.example', youtube: 'https://www.youtube.com/@turing' })
    const course = await database.db
      .selectFrom('courses')
      .select('instructor_name')
      .where('id', '=', 'at-course')
      .executeTakeFirstOrThrow()
    expect(course.instructor_name).toBe('Alan M. Turing')
    // The other creator's profile is untouched.
    expect((await other.caller.creators.profile()).name).toBe('Joan Clarke')

    const refused = async (input: Record<string, unknown>) =>
      (
        (await caller.creators
          .updateProfile({ name: 'Alan', title: 'Maths', bio: '', links: {}, ...input } as never)
          .catch((e) => e)) as TRPCError
      ).code
    expect(await refused({ bio: 'x'.repeat(5001) })).toBe('BAD_REQUEST')
    expect(await refused({ links: { linkedin: 'https://linkedin.evil.example/x' } })).toBe('BAD_REQUEST')
    expect(await refused({ name: 'x'.repeat(10_000) })).toBe('BAD_REQUEST')

    const customer: TestUser = await createUser(database.db)
    const customerCaller = await callerAs(database.db, customer)
    expect(
      (
        (await customerCaller.creators
          .updateProfile({ name: 'Eve', title: 'Hacker', bio: '', links: {} })
          .catch((e) => e)) as TRPCError
      ).code,
    ).toBe('FORBIDDEN')
  })
})
