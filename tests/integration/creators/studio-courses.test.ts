// The studio's courses against a real database: a creator creates and edits their own course (in one transaction
// with its owner row), lists owned and co-instructed courses, sees their plan's counts; a course on sale keeps its
// reviewed fields and gets a draft revision instead; co-instructors cannot change the price; bad input saves
// nothing; another creator's course is not found and a non-creator is refused the whole studio.
import { TRPCError } from '@trpc/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import type { StudioCourseInput } from '../../../src-shared/schemas/studio.ts'
import { STUDIO_PAGE_SIZE } from '../../../src-shared/studio.ts'
import { createTestDatabase } from '../../support/db.ts'
import { callerAs, createUser, type TestUser } from '../../support/factories.ts'
import { developmentCategory, makeCreator } from '../../support/studio.ts'

let database: DatabaseHandle
const db = () => database.db
let categoryId: string

beforeAll(async () => {
  database = await createTestDatabase()
  categoryId = await developmentCategory(db())
})
afterAll(async () => {
  await database.close()
})

async function codeOf(promise: Promise<unknown>) {
  try {
    await promise
    return 'OK'
  } catch (error) {
    return error instanceof TRPCError ? error.code : String(error)
  }
}

async function newCourse(creator: TestUser, title = 'Rust for Web Developers') {
  const caller = await callerAs(db(), creator)
  const { id } = await caller.studio.createCourse({ title, categoryId })
  return { caller, id }
}

const details = (courseId: string, over: Partial<StudioCourseInput> = {}): StudioCourseInput => ({
  courseId,
  title: 'Rust for Web Developers',
  subtitle: 'Build a web service in Rust',
  categoryId,
  level: 'intermediate',
  language: 'English',
  description: '# Why Rust\n\nFast and safe.',
  whatYouWillLearn: ['Ownership', 'Async Rust'],
  requirements: ['Some JavaScript'],
  imageUrl: '',
  priceUsd: '49.99',
  priceGbp: '',
  certificate: true,
  ...over,
})

const courseRow = (id: string) => db().selectFrom('courses').selectAll().where('id', '=', id).executeTakeFirstOrThrow()

describe('creating and editing a course', () => {
  it('creates a free draft owned by the creator under their instructor profile, with its owner row', async () => {
    const creator = await makeCreator(db(), 'Ada Byte')
    const { caller, id } = await newCourse(creator)
    const row = await courseRow(id)
    expect(row).toMatchObject({ owner_id: creator.id, status: 'draft', instructor_name: 'Ada Byte', price_minor: 0 })
    const instructor = await db()
      .selectFrom('creators')
      .select('instructor_id')
      .where('user_id', '=', creator.id)
      .executeTakeFirstOrThrow()
    expect(row.instructor_id).toBe(instructor.instructor_id)
    const team = await db().selectFrom('course_instructors').selectAll().where('course_id', '=', id).execute()
    expect(team).toMatchObject([{ user_id: creator.id, role: 'owner' }])
    const course = await caller.studio.course({ courseId: id })
    expect(course).toMatchObject({ id, role: 'owner', status: 'draft', onSale: false, pending: {}, curriculum: [] })
  })

  it('saves every detail of a draft at once (price in minor units and its currency)', async () => {
    const { caller, id } = await newCourse(await makeCreator(db()))
    const saved = await caller.studio.updateCourse(details(id, { priceUsd: '', priceGbp: '19.5', certificate: false }))
    expect(saved).toMatchObject({
      title: 'Rust for Web Developers',
      subtitle: 'Build a web service in Rust',
      priceMinor: 1950,
      currency: 'GBP',
      prices: { USD: null, GBP: 1950 },
      level: 'intermediate',
      certificate: false,
      whatYouWillLearn: ['Ownership', 'Async Rust'],
      pending: {},
    })
    const row = await courseRow(id)
    expect(row).toMatchObject({
      price_minor: 1950,
      currency: 'GBP',
      price_usd_minor: null,
      price_gbp_minor: 1950,
      description: '# Why Rust\n\nFast and safe.',
    })
  })

  it('refuses a 10,000-character title, 21 learning points, a foreign image and a bad price, saving nothing', async () => {
    const creator = await makeCreator(db())
    const caller = await callerAs(db(), creator)
    const before = await db()
      .selectFrom('courses')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow()
    expect(await codeOf(caller.studio.createCourse({ title: 'x'.repeat(10_000), categoryId }))).toBe('BAD_REQUEST')
    const after = await db()
      .selectFrom('courses')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow()
    expect(after.n).toBe(before.n)

    const { id } = await newCourse(creator, 'Kept title')
    const bad: Partial<StudioCourseInput>[] = [
      { title: 'x'.repeat(10_000) },
      { whatYouWillLearn: Array.from({ length: 21 }, (_, i) => `Point ${i}`) },
      { requirements: ['y'.repeat(201)] },
      { description: 'z'.repeat(20_001) },
      { imageUrl: 'https://evil.example/cover.png' },
      { priceUsd: '-5' },
      { priceUsd: '10000' },
      { priceGbp: 'abc' },
    ]
    for (const over of bad) {
      expect(await codeOf(caller.studio.updateCourse(details(id, over))), JSON.stringify(over).slice(0, 60)).toBe(
        'BAD_REQUEST',
      )
    }
    expect(await courseRow(id)).toMatchObject({ title: 'Kept title', subtitle: '', price_minor: 0 })
  })

  it('keeps a course on sale unchanged: title, price and description go to a draft revision, the rest applies', async () => {
    const { caller, id } = await newCourse(await makeCreator(db()))
    await caller.studio.updateCourse(details(id))
    await db()
      .updateTable('courses')
      .set({ status: 'published', published_at: new Date() })
      .where('id', '=', id)
      .execute()
    const saved = await caller.studio.updateCourse(
      details(id, { title: 'Rust, Renamed', priceUsd: '59.99', description: 'New text', subtitle: 'New subtitle' }),
    )
    expect(saved.pending).toEqual({ title: 'Rust, Renamed', priceUsdMinor: 5999, description: 'New text' })
    const row = await courseRow(id)
    expect(row).toMatchObject({
      title: 'Rust for Web Developers',
      price_minor: 4999,
      description: '# Why Rust\n\nFast and safe.',
      subtitle: 'New subtitle',
      status: 'published',
    })
    const draft = await db().selectFrom('course_drafts').select('fields').where('course_id', '=', id).executeTakeFirst()
    expect(draft?.fields).toEqual({ title: 'Rust, Renamed', priceUsdMinor: 5999, description: 'New text' })
    // Back to the values on sale: nothing is pending any more.
    const reverted = await caller.studio.updateCourse(details(id, { subtitle: 'New subtitle' }))
    expect(reverted.pending).toEqual({})
    expect(await db().selectFrom('course_drafts').select('course_id').where('course_id', '=', id).execute()).toEqual([])
  })

  it('lets a co-instructor edit but not change the price (nor the pending price)', async () => {
    const owner = await makeCreator(db())
    const co = await makeCreator(db())
    const { caller, id } = await newCourse(owner)
    await caller.studio.updateCourse(details(id))
    await db().insertInto('course_instructors').values({ course_id: id, user_id: co.id, role: 'co' }).execute()
    const coCaller = await callerAs(db(), co)
    expect(await codeOf(coCaller.studio.updateCourse(details(id, { priceUsd: '0' })))).toBe('FORBIDDEN')
    expect(await codeOf(coCaller.studio.updateCourse(details(id, { priceGbp: '39.99' })))).toBe('FORBIDDEN')
    expect((await courseRow(id)).price_minor).toBe(4999)
    const saved = await coCaller.studio.updateCourse(details(id, { subtitle: 'Edited by the co-instructor' }))
    expect(saved).toMatchObject({ role: 'co', subtitle: 'Edited by the co-instructor', priceMinor: 4999 })
  })
})

describe('my courses and standing', () => {
  it('lists owned and co-instructed courses with their state, searchable and paged, and nobody else’s', async () => {
    const creator = await makeCreator(db())
    const other = await makeCreator(db())
    const caller = await callerAs(db(), creator)
    for (let i = 0; i < STUDIO_PAGE_SIZE + 2; i++)
      await caller.studio.createCourse({ title: `Course ${i}`, categoryId })
    const { id: shared } = await newCourse(other, 'Shared Kotlin course')
    await db().insertInto('course_instructors').values({ course_id: shared, user_id: creator.id, role: 'co' }).execute()
    await newCourse(other, 'Private Kotlin course')

    const first = await caller.studio.myCourses({ page: 1 })
    expect(first.total).toBe(STUDIO_PAGE_SIZE + 3)
    expect(first.items).toHaveLength(STUDIO_PAGE_SIZE)
    const second = await caller.studio.myCourses({ page: 2 })
    expect(second.items).toHaveLength(3)
    const found = await caller.studio.myCourses({ search: 'kotlin' })
    expect(found.items.map((item) => [item.title, item.role, item.status])).toEqual([
      ['Shared Kotlin course', 'co', 'draft'],
    ])
    expect((await caller.studio.myCourses({ search: 'kotlin', state: 'published' })).total).toBe(0)
  })

  it('tells the plan and its counts, or without a plan which plan fits', async () => {
    const creator = await makeCreator(db())
    const caller = await callerAs(db(), creator)
    const standing = await caller.studio.standing()
    expect(standing).toMatchObject({ planId: null, limits: null, publishedCourses: 0, storageUsedBytes: 0 })
    expect(standing.suggestedPlanId).toBe('basic')
  })
})

describe('who may use the studio', () => {
  it('refuses a signed-in customer who is not a creator (FORBIDDEN) and a visitor (UNAUTHORIZED)', async () => {
    const customer = await callerAs(db(), await createUser(db()))
    const staff = await callerAs(db(), await createUser(db(), { role: 'admin' }))
    const visitor = await callerAs(db(), null)
    for (const caller of [customer, staff]) {
      expect(await codeOf(caller.studio.standing())).toBe('FORBIDDEN')
      expect(await codeOf(caller.studio.myCourses({}))).toBe('FORBIDDEN')
      expect(await codeOf(caller.studio.createCourse({ title: 'Sneaky', categoryId }))).toBe('FORBIDDEN')
    }
    expect(await codeOf(visitor.studio.myCourses({}))).toBe('UNAUTHORIZED')
  })

  it('answers NOT_FOUND to another creator for every course procedure, and changes nothing', async () => {
    const { caller, id } = await newCourse(await makeCreator(db()), 'Mine only')
    await caller.studio.updateCourse(details(id, { title: 'Mine only' }))
    const intruder = await callerAs(db(), await makeCreator(db()))
    expect(await codeOf(intruder.studio.course({ courseId: id }))).toBe('NOT_FOUND')
    expect(await codeOf(intruder.studio.updateCourse(details(id, { title: 'Hijacked' })))).toBe('NOT_FOUND')
    expect(await codeOf(intruder.studio.course({ courseId: 'no-such-course' }))).toBe('NOT_FOUND')
    // A house course (no owner) is not the studio's either.
    expect(await codeOf(intruder.studio.course({ courseId: 'modern-react-typescript' }))).toBe('NOT_FOUND')
    expect((await courseRow(id)).title).toBe('Mine only')
  })
})
