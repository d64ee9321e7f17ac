// Manage Courses against a real database: validation messages, counts, search, pagination, the public
// catalogue following every change, archive-instead-of-delete, and the audit record of each change.
import { TRPCError } from '@trpc/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { courseHasPurchases } from '../../../src-server/flows/course-purchases.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { createCaller } from '../../../src-server/routers/_app.ts'
import { createContextInner } from '../../../src-server/trpc/context.ts'
import { ADMIN_PAGE_SIZE, COURSE_IMAGE_REFUSED } from '../../../src-shared/schemas/admin.ts'
import { createTestDatabase } from '../../support/db.ts'
import { callerAs, createUser, type TestUser } from '../../support/factories.ts'
import { placeOrder } from '../../support/orders.ts'

let database: DatabaseHandle
let editor: TestUser
let categoryId: string
const visitor = () => createCaller(createContextInner({ db: database.db, user: null, session: null }))
const asEditor = () => callerAs(database.db, editor)

const baseCourse = () => ({
  title: 'Rust for Web Developers',
  description: 'Learn Rust by building a web service.',
  price: '59.99',
  categoryId,
  instructorName: 'Ada Byte',
  level: 'intermediate' as const,
  status: 'draft' as const,
  whatYouWillLearn: ['Ownership', 'Async Rust'],
  requirements: ['Some JavaScript'],
  curriculum: [
    {
      title: 'Getting started',
      lessons: [
        { title: 'Install', duration: '5:30', isPreview: true },
        { title: 'Hello', duration: '10:00', isPreview: false },
      ],
    },
    { title: 'Ownership', lessons: [{ title: 'Borrowing', duration: '44:30', isPreview: false }] },
  ],
})

async function codeOf(promise: Promise<unknown>) {
  try {
    await promise
    return 'OK'
  } catch (error) {
    return error instanceof TRPCError ? `${error.code}: ${error.message}` : String(error)
  }
}

beforeAll(async () => {
  database = await createTestDatabase()
  editor = await createUser(database.db, { role: 'editor', email: 'editor@example.test' })
  const category = await database.db
    .selectFrom('categories')
    .select('id')
    .where('slug', '=', 'development')
    .executeTakeFirstOrThrow()
  categoryId = category.id
})
afterAll(async () => {
  await database?.close() // undefined when the set-up itself failed
})

describe('admin.courses validation', () => {
  it("refuses a missing title or description with 'Please fill in required fields' and saves nothing", async () => {
    const before = await database.db
      .selectFrom('courses')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow()
    const caller = await asEditor()
    for (const bad of [{ title: '' }, { description: '   ' }]) {
      const error = await caller.admin.courses.create({ ...baseCourse(), ...bad }).catch((e: TRPCError) => e)
      expect(error).toBeInstanceOf(TRPCError)
      const fieldErrors = ((error as TRPCError).cause as unknown as { issues: { message: string }[] }).issues
      expect(fieldErrors.map((issue) => issue.message)).toContain('Please fill in required fields')
    }
    const after = await database.db
      .selectFrom('courses')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow()
    expect(after.n).toBe(before.n)
  })

  it('refuses a price that is not a number instead of storing NaN', async () => {
    const caller = await asEditor()
    for (const price of ['', 'abc', 'NaN', '-5', '1.999']) {
      expect(await codeOf(caller.admin.courses.create({ ...baseCourse(), price }))).toMatch(/^BAD_REQUEST/)
    }
  })

  it('refuses an unknown category', async () => {
    const caller = await asEditor()
    const result = await codeOf(
      caller.admin.courses.create({ ...baseCourse(), categoryId: '00000000-0000-4000-8000-000000000000' }),
    )
    expect(result).toBe('BAD_REQUEST: Please choose a category')
  })
})

describe('admin.courses image', () => {
  const refused = `BAD_REQUEST: ${COURSE_IMAGE_REFUSED}`

  it('saves uploads of the local storage and the catalogue images; refuses any other address', async () => {
    const caller = await asEditor()
    for (const imageUrl of ['', '/uploads/courses/1700000000000-abc123.png', '/images/covers/design-1.svg']) {
      expect(
        await codeOf(caller.admin.courses.create({ ...baseCourse(), title: `Image ${imageUrl}`, imageUrl })),
        imageUrl,
      ).toBe('OK')
    }
    for (const imageUrl of [
      'https://tracker.example/pixel.png',
      'http://127.0.0.1:9000/bucket/courses/x.png',
      '/uploads/avatars/someone/avatar-1.png',
      '/uploads/courses/../avatars/x.png',
      '/api/admin/course-image',
    ]) {
      expect(await codeOf(caller.admin.courses.create({ ...baseCourse(), imageUrl })), imageUrl).toBe(refused)
    }
  })

  it('keeps a course saving with its current image, but refuses switching to a foreign one', async () => {
    const caller = await asEditor()
    const course = await caller.admin.courses.create({ ...baseCourse(), title: 'Old CDN course' })
    // As if S3_PUBLIC_URL moved: the stored URL no longer belongs to the storage, yet the course stays editable.
    const oldCdn = 'https://old-cdn.example/courses/1.png'
    await database.db.updateTable('courses').set({ image_url: oldCdn }).where('id', '=', course.id).execute()
    const edit = { ...baseCourse(), id: course.id, title: 'Old CDN course, edited', imageUrl: oldCdn }
    expect(await codeOf(caller.admin.courses.update(edit))).toBe('OK')
    const other = 'https://old-cdn.example/courses/2.png'
    expect(await codeOf(caller.admin.courses.update({ ...edit, imageUrl: other }))).toBe(refused)
  })
})

describe('admin.courses lifecycle', () => {
  it('creates a draft the public cannot see, with lessons and duration counted from the curriculum', async () => {
    const caller = await asEditor()
    const course = await caller.admin.courses.create(baseCourse())
    expect(course.id).toBe('rust-for-web-developers')
    expect(course.priceMinor).toBe(5999)
    expect(course.lessons).toBe(3)
    expect(course.durationMinutes).toBe(60)
    expect(course.curriculum[0]?.lessons[0]).toEqual({
      id: expect.any(String),
      title: 'Install',
      duration: '5:30',
      isPreview: true,
      // Typed, not read from an uploaded video.
      durationFromVideo: false,
    })
    expect(await visitor().catalog.course({ id: course.id })).toBeNull()

    const audit = await database.db
      .selectFrom('audit_log')
      .select(['actor_email', 'action', 'before', 'after'])
      .where('entity_id', '=', course.id)
      .execute()
    expect(audit).toEqual([
      expect.objectContaining({ actor_email: 'editor@example.test', action: 'course.create', before: null }),
    ])
    expect(audit[0]?.after).toMatchObject({
      title: 'Rust for Web Developers',
      priceMinor: 5999,
      whatYouWillLearn: ['Ownership', 'Async Rust'],
    })
  })

  it('keeps the ids of lessons that still exist when the curriculum is edited', async () => {
    const caller = await asEditor()
    const course = await caller.admin.courses.create({ ...baseCourse(), title: 'Lesson ids' })
    const [first, second] = course.curriculum
    const install = first?.lessons[0]
    const borrowing = second?.lessons[0]
    // Reordered sections, a renamed lesson (sent with its id), a removed lesson, a new one.
    const edited = await caller.admin.courses.update({
      ...baseCourse(),
      id: course.id,
      title: 'Lesson ids',
      curriculum: [
        {
          id: second?.id,
          title: 'Ownership',
          lessons: [{ id: borrowing?.id, title: 'Borrowing well', duration: '44:30', isPreview: false }],
        },
        {
          id: first?.id,
          title: 'Getting started',
          lessons: [
            { id: install?.id, title: 'Install', duration: '5:30', isPreview: true },
            { title: 'Brand new', duration: '1:00', isPreview: false },
          ],
        },
      ],
    })
    expect(edited.curriculum.map((s) => s.id)).toEqual([second?.id, first?.id])
    expect(edited.curriculum[0]?.lessons).toEqual([
      { id: borrowing?.id, title: 'Borrowing well', duration: '44:30', isPreview: false, durationFromVideo: false },
    ])
    expect(edited.curriculum[1]?.lessons[0]?.id).toBe(install?.id)
    const newId = edited.curriculum[1]?.lessons[1]?.id
    expect(newId).toMatch(/^[0-9a-f-]{36}$/)
    expect([install?.id, borrowing?.id, first?.lessons[1]?.id]).not.toContain(newId)
    const rows = await database.db.selectFrom('lessons').select('id').where('course_id', '=', course.id).execute()
    expect(rows).toHaveLength(3)
    // An id of another course's lesson is not taken over: the lesson is created anew.
    const other = await database.db
      .selectFrom('lessons')
      .select('id')
      .where('course_id', '!=', course.id)
      .executeTakeFirstOrThrow()
    const again = await caller.admin.courses.update({
      ...baseCourse(),
      id: course.id,
      title: 'Lesson ids',
      curriculum: [{ title: 'Only', lessons: [{ id: other.id, title: 'Stolen', duration: '1:00', isPreview: false }] }],
    })
    expect(again.curriculum[0]?.lessons[0]?.id).not.toBe(other.id)
    await caller.admin.courses.delete({ id: course.id })
  })

  // Each test below makes its own course (its own title, so its own id): they run alone and in any order.
  it('gives a second course with the same title its own id', async () => {
    const caller = await asEditor()
    const first = await caller.admin.courses.create({ ...baseCourse(), title: 'Same Title Twice' })
    const course = await caller.admin.courses.create({ ...baseCourse(), title: 'Same Title Twice' })
    expect(first.id).toBe('same-title-twice')
    expect(course.id).toMatch(/^same-title-twice-[0-9a-f]{6}$/)
    await caller.admin.courses.delete({ id: course.id })
    await caller.admin.courses.delete({ id: first.id })
  })

  it('publishes: the public catalogue shows it; editing changes what the public sees', async () => {
    const caller = await asEditor()
    const draft = await caller.admin.courses.create({ ...baseCourse(), title: 'Rust Published' })
    expect(draft.id).toBe('rust-published')
    expect(await visitor().catalog.course({ id: draft.id })).toBeNull()
    await caller.admin.courses.update({ ...baseCourse(), title: 'Rust Published', id: draft.id, status: 'published' })
    const published = await visitor().catalog.course({ id: draft.id })
    expect(published?.title).toBe('Rust Published')

    await caller.admin.courses.update({
      ...baseCourse(),
      id: draft.id,
      status: 'published',
      title: 'Rust for the Web',
      price: '10',
      curriculum: [],
      lessons: 7,
      durationMinutes: 90,
    })
    const edited = await visitor().catalog.course({ id: draft.id })
    expect(edited).toMatchObject({ title: 'Rust for the Web', priceMinor: 1000, lessons: 7, durationMinutes: 90 })
    const audit = await database.db
      .selectFrom('audit_log')
      .select(['before', 'after'])
      .where('action', '=', 'course.update')
      .where('entity_id', '=', draft.id)
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow()
    expect((audit.before as { title: string }).title).toBe('Rust Published')
    expect((audit.after as { title: string }).title).toBe('Rust for the Web')
  })

  it('features and unfeatures; the public featured list follows', async () => {
    const caller = await asEditor()
    const course = await caller.admin.courses.create({ ...baseCourse(), title: 'Rust Featured', status: 'published' })
    await caller.admin.courses.setFeatured({ id: course.id, featured: true })
    expect((await visitor().catalog.featuredCourses({ limit: 24 })).map((c) => c.id)).toContain(course.id)
    await caller.admin.courses.setFeatured({ id: course.id, featured: false })
    expect((await visitor().catalog.featuredCourses({ limit: 24 })).map((c) => c.id)).not.toContain(course.id)
  })

  it('deletes a course nobody bought', async () => {
    const caller = await asEditor()
    const course = await caller.admin.courses.create({ ...baseCourse(), title: 'Rust Deleted' })
    expect(await caller.admin.courses.delete({ id: course.id })).toEqual({ archived: false })
    expect(
      await database.db.selectFrom('courses').select('id').where('id', '=', course.id).executeTakeFirst(),
    ).toBeUndefined()
    expect(await codeOf(caller.admin.courses.delete({ id: course.id }))).toBe('NOT_FOUND: Course not found')
  })

  it('archives (never erases) a course that someone ordered', async () => {
    const caller = await asEditor()
    const course = await caller.admin.courses.create({ ...baseCourse(), title: 'Bought course', status: 'published' })
    expect(await courseHasPurchases(database.db, course.id)).toBe(false)
    const buyer = await createUser(database.db, { role: 'customer' })
    const orderId = await placeOrder(database.db, {
      userId: buyer.id,
      courseId: course.id,
      reference: 'SF-BOUGHT-1',
      title: course.title,
      totalMinor: 5999,
    })
    expect(await courseHasPurchases(database.db, course.id)).toBe(true)

    expect(await caller.admin.courses.delete({ id: course.id })).toEqual({ archived: true })
    const row = await database.db
      .selectFrom('courses')
      .select(['status', 'featured'])
      .where('id', '=', course.id)
      .executeTakeFirst()
    expect(row).toEqual({ status: 'archived', featured: false })
    const line = await database.db
      .selectFrom('order_items')
      .select('course_id')
      .where('order_id', '=', orderId)
      .executeTakeFirstOrThrow()
    expect(line.course_id).toBe(course.id)
    expect(await visitor().catalog.course({ id: course.id })).toBeNull()
    const list = await caller.admin.courses.list({ search: 'Bought' })
    expect(list.total).toBe(0)
  })
})

describe('admin.courses.list', () => {
  it('counts each filter in the database', async () => {
    const list = await (await asEditor()).admin.courses.list({})
    const rows = await database.db
      .selectFrom('courses')
      .select(['status', 'featured'])
      .where('status', '!=', 'archived')
      .execute()
    expect(list.counts).toEqual({
      all: rows.length,
      published: rows.filter((r) => r.status === 'published').length,
      draft: rows.filter((r) => r.status === 'draft').length,
      featured: rows.filter((r) => r.featured).length,
    })
    const drafts = await (await asEditor()).admin.courses.list({ filter: 'draft' })
    expect(drafts.items.every((c) => c.status === 'draft')).toBe(true)
    expect(drafts.total).toBe(list.counts.draft)
    const featured = await (await asEditor()).admin.courses.list({ filter: 'featured' })
    expect(featured.items.every((c) => c.featured)).toBe(true)
  })

  it('searches title and instructor on the server, case-insensitively, with no wildcard injection', async () => {
    const caller = await asEditor()
    await caller.admin.courses.create({ ...baseCourse(), title: 'Zebra 100% Course', instructorName: 'Quentin Q' })
    expect((await caller.admin.courses.list({ search: 'zebra' })).items.map((c) => c.title)).toEqual([
      'Zebra 100% Course',
    ])
    expect((await caller.admin.courses.list({ search: 'quentin' })).total).toBe(1)
    expect((await caller.admin.courses.list({ search: '100%' })).total).toBe(1)
    expect((await caller.admin.courses.list({ search: '%' })).total).toBe(1)
    expect((await caller.admin.courses.list({ search: 'no such course at all' })).items).toEqual([])
  })

  it('paginates on the server', async () => {
    const caller = await asEditor()
    for (let i = 0; i < ADMIN_PAGE_SIZE + 2; i++)
      await caller.admin.courses.create({ ...baseCourse(), title: `Paged ${i}` })
    const first = await caller.admin.courses.list({ search: 'Paged', page: 1 })
    const second = await caller.admin.courses.list({ search: 'Paged', page: 2 })
    expect(first.total).toBe(ADMIN_PAGE_SIZE + 2)
    expect(first.pageCount).toBe(2)
    expect(first.items).toHaveLength(ADMIN_PAGE_SIZE)
    expect(second.items).toHaveLength(2)
    const ids = new Set([...first.items, ...second.items].map((c) => c.id))
    expect(ids.size).toBe(ADMIN_PAGE_SIZE + 2)
  })
})
