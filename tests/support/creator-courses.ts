// Creators and their courses for the review, publishing and team tests (integration and e2e): an approved creator
// (creators + instructors rows), optionally holding a plan bought as the shop sells it, and a course they own made
// in the database, ready for review (an image, a 250-character description, 5 lessons, one a preview) or not.
import { randomBytes } from 'node:crypto'
import { addCourseOwner } from '../../src-server/creators/course-team.ts'
import { createFromCart } from '../../src-server/flows/cart-order.ts'
import { markPaid } from '../../src-server/flows/pay-order.ts'
import type { DB } from '../../src-server/kernel/db.ts'
import { type callerAs, createUser, type TestUser } from './factories.ts'
import { shopCaller } from './shop.ts'
import { approveCreator } from './studio.ts'

export type PlanId = 'basic' | 'pro' | 'enterprise'

/** Buys a creator plan for the user as the shop does (a cart, an order paid by staff): a live plan grant. */
export async function buyPlan(db: DB, user: TestUser, planId: PlanId) {
  const caller = await shopCaller(db, user)
  await caller.cart.add({ kind: 'plan', planId, billingCycle: 'monthly' })
  const order = await createFromCart(db, {
    userId: user.id,
    currency: 'USD',
    method: 'bank_transfer',
    referencePrefix: 'SF',
  })
  const result = await markPaid(db, order.id, { source: 'staff' })
  if (result !== 'fulfilled') throw new Error(`The plan order was not fulfilled: ${result}`)
}

/** Ends the user's plan grants now, as a lapse does: nothing a learner bought is touched. */
export async function lapsePlan(db: DB, userId: string) {
  await db
    .updateTable('access_grants')
    .set({ ends_at: new Date(Date.now() - 1000) })
    .where('user_id', '=', userId)
    .where('kind', '=', 'premium')
    .execute()
}

/** Undoes lapsePlan: the creator's plan runs on with no end. */
export async function restorePlan(db: DB, userId: string) {
  await db
    .updateTable('access_grants')
    .set({ ends_at: null })
    .where('user_id', '=', userId)
    .where('kind', '=', 'premium')
    .execute()
}

export async function createCreator(
  db: DB,
  options: { plan?: PlanId | null; email?: string; firstName?: string } = {},
): Promise<TestUser> {
  const user = await createUser(db, { email: options.email, firstName: options.firstName ?? 'Cora' })
  await approveCreator(db, user.id, `${user.firstName} ${user.lastName}`)
  if (options.plan) await buyPlan(db, user, options.plan)
  return user
}

export const READY_DESCRIPTION = 'A practical course that walks you from the first line to a finished project. '
  .repeat(4)
  .trim()

/** A course owned by the creator; `ready` (default) meets every checklist item. Returns its id and lesson ids. */
export async function createCreatorCourse(
  db: DB,
  owner: { id: string },
  options: {
    title?: string
    status?: 'draft' | 'published' | 'in_review' | 'unpublished'
    lessons?: number
    ready?: boolean
  } = {},
) {
  const ready = options.ready ?? true
  const title = options.title ?? `Creator course ${randomBytes(3).toString('hex')}`
  const id = `cc-${randomBytes(5).toString('hex')}`
  const [category, instructor] = await Promise.all([
    db.selectFrom('categories').select('id').where('slug', '=', 'development').executeTakeFirstOrThrow(),
    db.selectFrom('creators').select('instructor_id').where('user_id', '=', owner.id).executeTakeFirst(),
  ])
  await db
    .insertInto('courses')
    .values({
      id,
      title,
      description: ready ? READY_DESCRIPTION : 'Too short',
      category_id: category.id,
      instructor_id: instructor?.instructor_id ?? null,
      instructor_name: 'Cora Creator',
      image_url: ready ? '/images/covers/development-1.svg' : '/placeholder.svg',
      price_minor: 4900,
      currency: 'USD',
      what_you_will_learn: JSON.stringify(['Things']),
      requirements: JSON.stringify([]),
      status: options.status ?? 'draft',
      published_at: options.status === 'published' ? new Date() : null,
      owner_id: owner.id,
    })
    .execute()
  await addCourseOwner(db, id, owner.id)
  const section = await db
    .insertInto('course_sections')
    .values({ course_id: id, position: 0, title: 'Getting started' })
    .returning('id')
    .executeTakeFirstOrThrow()
  const count = options.lessons ?? 5
  const lessonIds: string[] = []
  for (let position = 0; position < count; position++) {
    const row = await db
      .insertInto('lessons')
      .values({
        course_id: id,
        section_id: section.id,
        position,
        title: `Lesson ${position + 1}`,
        duration_seconds: 600,
        is_preview: ready && position === 0,
        kind: 'article',
        body_markdown: `# Lesson ${position + 1}\n\nSome text.`,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    lessonIds.push(row.id)
  }
  await db
    .updateTable('courses')
    .set({ lessons_count: count, duration_minutes: count * 10 })
    .where('id', '=', id)
    .execute()
  return { id, title, lessonIds, sectionId: section.id }
}

type StaffCaller = Awaited<ReturnType<typeof callerAs>>

/** Staff approve a submission as they would from its page: naming the version the page showed them. */
export async function approveAsShown(staff: StaffCaller, submissionId: string) {
  const { version } = await staff.admin.courseReviews.detail({ submissionId })
  return staff.admin.courseReviews.approve({ submissionId, version })
}
