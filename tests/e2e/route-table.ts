// Every route of the client's route tree, with a URL that shows it (dynamic params filled with seeded ids) and who
// visits it. The accessibility test (a11y-routes.spec.ts) and `npm run screenshots` both walk this table, and the
// test fails naming any file under src-client/routes that has no entry here: add one with every new route.
import { readdirSync } from 'node:fs'
import path from 'node:path'
import type { Browser, BrowserContext } from '@playwright/test'
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import type { Database } from '../../db/types.ts'
import { grant } from '../../src-server/access/ledger.ts'
import { record } from '../../src-server/audit/repository.ts'
import { addCartItem } from '../../src-server/cart/repository.ts'
import { listLessonIds } from '../../src-server/catalog/repository-lessons.ts'
import { ensureSchool } from '../../src-server/creators/schools.ts'
import { issueOrderInvoice } from '../../src-server/orders/invoices.ts'
import { seedBundle } from '../support/bundles.ts'
import { createUser } from '../support/factories.ts'
import { placeOrder } from '../support/orders.ts'
import { addQuizLesson } from '../support/quizzes.ts'
import { paidServiceOrder } from '../support/service-orders.ts'
import { studioCourseOf } from '../support/studio.ts'
import { signInAs } from './fixtures.ts'

export type Visitor = 'visitor' | 'customer' | 'staff' | 'creator'

/** Rows made for the visitor when its context opens, for the URLs that name them. */
export interface Seeded {
  /** A paid service order: the customer's own; for staff, another buyer's. */
  serviceOrderId?: string
  /** The first lesson of the customer's paid course, and the customer's certificate of it. */
  lessonId?: string
  certificateId?: string
  /** The invoice of the customer's paid order. */
  invoiceId?: string
  /** The creator's own course (a section with a text lesson) in the studio. */
  studioCourseId?: string
  /** For staff: another customer's application to teach, waiting for a decision. */
  applicationId?: string
  /** For staff: a creator's course submitted for review. */
  submissionId?: string
  /** The creator's (for staff: a creator's) course with a quiz lesson, and that lesson. */
  quizCourseId?: string
  quizLessonId?: string
  /** For the customer: a published bundle of two courses they do not hold. */
  bundleSlug?: string
  /** The creator's school's public address (creator visitors). */
  schoolSlug?: string
  /** For the creator: a learner's conversation about their studio course (issue 34). */
  messageThreadId?: string
}

export interface RouteEntry {
  /** The route file, relative to src-client/routes. */
  file: string
  /** The URL visited (a function of the seeded rows when it names one). */
  url: string | ((seeded: Seeded) => string)
  as: Visitor
  /** The not-found pages' status; every other URL must show its page (a seeded row the page cannot show is a 404). */
  status?: 404
}

export const routeUrl = (route: RouteEntry, seeded: Seeded) =>
  typeof route.url === 'string' ? route.url : route.url(seeded)

/** Files that only wrap other routes (layouts with no page of their own). */
export const LAYOUT_FILES = [
  '__root.tsx',
  '_auth.tsx',
  'admin/_staff.tsx',
  'studio/route.tsx',
  'studio/courses.$courseId.tsx',
]

/** The course the customer has bought (enrolled by its paid order). */
const OWNED_COURSE = 'javascript-fundamentals'

/** A learner's conversation about a course, with their first message: its id. */
async function seedThread(db: Kysely<Database>, courseId: string, memberId: string, [subject, body]: [string, string]) {
  const thread = await db
    .insertInto('course_message_threads')
    .values({ course_id: courseId, member_id: memberId, subject })
    .returning('id')
    .executeTakeFirstOrThrow()
  await db
    .insertInto('course_messages')
    .values({ thread_id: thread.id, author_id: memberId, from_instructor: false, body })
    .execute()
  return thread.id
}

export const ROUTES: RouteEntry[] = [
  { file: 'index.tsx', url: '/', as: 'visitor' },
  { file: 'courses/index.tsx', url: '/courses', as: 'visitor' },
  { file: 'courses/category/$slug.tsx', url: '/courses/category/development', as: 'visitor' },
  { file: 'courses/$courseId.tsx', url: '/courses/modern-react-typescript', as: 'visitor' },
  { file: 'services.tsx', url: '/services', as: 'visitor' },
  { file: 'service/$serviceId.tsx', url: '/service/uk-company-formation', as: 'visitor' },
  { file: 'pricing.tsx', url: '/pricing', as: 'visitor' },
  { file: 'about.tsx', url: '/about', as: 'visitor' },
  { file: 'blog.tsx', url: '/blog', as: 'visitor' },
  { file: 'careers.tsx', url: '/careers', as: 'visitor' },
  { file: 'contact.tsx', url: '/contact', as: 'visitor' },
  { file: 'cookies.tsx', url: '/cookies', as: 'visitor' },
  { file: 'examples.tsx', url: '/examples', as: 'visitor' },
  { file: 'features.tsx', url: '/features', as: 'visitor' },
  { file: 'privacy.tsx', url: '/privacy', as: 'visitor' },
  { file: 'resources.tsx', url: '/resources', as: 'visitor' },
  { file: 'security.tsx', url: '/security', as: 'visitor' },
  { file: 'terms.tsx', url: '/terms', as: 'visitor' },
  { file: 'login.tsx', url: '/login', as: 'visitor' },
  { file: 'signup.tsx', url: '/signup', as: 'visitor' },
  { file: 'forgot-password.tsx', url: '/forgot-password', as: 'visitor' },
  { file: 'two-factor.tsx', url: '/two-factor', as: 'visitor' },
  { file: 'reset-password.tsx', url: '/reset-password?token=not-a-real-token', as: 'visitor' },
  { file: 'verify-email.tsx', url: '/verify-email', as: 'visitor' },
  { file: 'change-email.tsx', url: '/change-email', as: 'visitor' },
  { file: 'gifts.claim.tsx', url: '/gifts/claim?token=not-a-real-token', as: 'visitor' },
  { file: 'cart_.reminders.unsubscribe.tsx', url: '/cart/reminders/unsubscribe?token=not-a-real-token', as: 'visitor' },
  { file: 'mail.unsubscribe.tsx', url: '/mail/unsubscribe?token=not-a-real-token', as: 'visitor' },
  { file: 'cart_.restore.tsx', url: '/cart/restore', as: 'customer' },
  { file: 'gifts.new.tsx', url: '/gifts/new?course=modern-react-typescript', as: 'customer' },
  {
    file: 'auth/callback.tsx',
    url: '/auth/callback?error=cancelled&via=google',
    as: 'visitor',
  },
  { file: 'payment-success.tsx', url: '/payment-success', as: 'visitor' },
  { file: 'admin/login.tsx', url: '/admin/login', as: 'visitor' },
  { file: 'admin/accept-invite.tsx', url: '/admin/accept-invite?token=not-a-real-token', as: 'visitor' },
  { file: '__root.tsx#notFound', url: '/no-such-page', as: 'visitor', status: 404 },
  { file: 'teach.index.tsx', url: '/teach', as: 'visitor' },
  // A seeded house instructor (the creators migration gave each a slug from the name).
  { file: 'instructors.$slug.tsx', url: '/instructors/amara-nwosu', as: 'visitor' },

  { file: 'cart.tsx', url: '/cart', as: 'customer' },
  { file: 'payment.tsx', url: '/payment', as: 'customer' },
  { file: '_auth/account.tsx', url: '/account', as: 'customer' },
  { file: '_auth/account_.premium.tsx', url: '/account/premium', as: 'customer' },
  { file: '_auth/account_.membership.tsx', url: '/account/membership', as: 'customer' },
  { file: '_auth/account_.security.tsx', url: '/account/security', as: 'customer' },
  // Nothing waits to be linked: the empty state (tests/e2e/sso.spec.ts shows the consent itself).
  { file: '_auth/account_.sso-link.tsx', url: '/account/sso-link', as: 'customer' },
  // No school named: the incomplete-link state (tests/e2e/custom-domain.spec.ts walks the hand-off itself).
  { file: '_auth/handoff.tsx', url: '/handoff', as: 'customer' },
  // A customer who is not a creator: the page explains that only approved creators upload videos.
  { file: 'studio/uploads.tsx', url: '/studio/uploads', as: 'customer' },
  { file: 'learn/$courseId.index.tsx', url: `/learn/${OWNED_COURSE}`, as: 'customer' },
  {
    file: 'learn/$courseId.$lessonId.tsx',
    url: (seeded) => `/learn/${OWNED_COURSE}/${seeded.lessonId}`,
    as: 'customer',
  },
  { file: 'certificates/$certificateId.tsx', url: (seeded) => `/certificates/${seeded.certificateId}`, as: 'customer' },
  {
    file: '_auth/documents.$kind.$documentId.tsx',
    url: (seeded) => `/documents/invoice/${seeded.invoiceId}`,
    as: 'customer',
  },
  {
    file: '_auth/account_.services.$id.tsx',
    url: (seeded) => `/account/services/${seeded.serviceOrderId}`,
    as: 'customer',
  },
  { file: 'teach.apply.tsx', url: '/teach/apply', as: 'customer' },
  { file: 'bundles.$slug.tsx', url: (seeded) => `/bundles/${seeded.bundleSlug}`, as: 'customer' },
  { file: 'teach.application.tsx', url: '/teach/application', as: 'customer' },
  // Messages to instructors (issue 34): the seeded course is a house course, whose messages staff answer (0140).
  { file: '_auth/account_.messages.tsx', url: '/account/messages', as: 'customer' },
  { file: '_auth/account_.messages_.$courseId.tsx', url: `/account/messages/${OWNED_COURSE}`, as: 'customer' },
  { file: 'studio/messages.index.tsx', url: '/studio/messages', as: 'creator' },
  {
    file: 'studio/messages.$threadId.tsx',
    url: (seeded) => `/studio/messages/${seeded.messageThreadId}`,
    as: 'creator',
  },
  { file: 'admin/_staff/messages.tsx', url: '/admin/messages', as: 'staff' },
  {
    file: 'admin/_staff/messages_.$threadId.tsx',
    url: (seeded) => `/admin/messages/${seeded.messageThreadId}`,
    as: 'staff',
  },

  { file: 'studio/profile.tsx', url: '/studio/profile', as: 'creator' },
  { file: 'studio/earnings.tsx', url: '/studio/earnings', as: 'creator' },
  { file: 'studio/analytics.tsx', url: '/studio/analytics', as: 'creator' },
  { file: 'studio/payouts.tsx', url: '/studio/payouts', as: 'creator' },
  { file: 'studio/bundles.tsx', url: '/studio/bundles', as: 'creator' },
  { file: 'studio/coupons.tsx', url: '/studio/coupons', as: 'creator' },
  { file: 'studio/reported-posts.tsx', url: '/studio/reported-posts', as: 'creator' },
  { file: 'studio/live.tsx', url: '/studio/live', as: 'creator' },
  { file: '_auth/live.tsx', url: '/live', as: 'customer' },
  { file: '_auth/live_.manage.tsx', url: '/live/manage', as: 'staff' },

  { file: 'admin/_staff/index.tsx', url: '/admin', as: 'staff' },
  { file: 'admin/_staff/courses.tsx', url: '/admin/courses', as: 'staff' },
  { file: 'admin/_staff/categories.tsx', url: '/admin/categories', as: 'staff' },
  { file: 'admin/_staff/bundles.tsx', url: '/admin/bundles', as: 'staff' },
  { file: 'admin/_staff/users.tsx', url: '/admin/users', as: 'staff' },
  { file: 'admin/_staff/orders.tsx', url: '/admin/orders', as: 'staff' },
  { file: 'admin/_staff/audit.tsx', url: '/admin/audit', as: 'staff' },
  { file: 'admin/_staff/customers.tsx', url: '/admin/customers', as: 'staff' },
  { file: 'admin/_staff/outbox.tsx', url: '/admin/outbox', as: 'staff' },
  { file: 'admin/_staff/support.tsx', url: '/admin/support', as: 'staff' },
  { file: 'admin/_staff/chat.tsx', url: '/admin/chat', as: 'staff' },
  { file: 'admin/_staff/reviews.tsx', url: '/admin/reviews', as: 'staff' },
  { file: 'admin/_staff/reported-posts.tsx', url: '/admin/reported-posts', as: 'staff' },
  { file: 'admin/_staff/service-orders.tsx', url: '/admin/service-orders', as: 'staff' },
  {
    file: 'admin/_staff/service-orders_.$id.tsx',
    url: (seeded) => `/admin/service-orders/${seeded.serviceOrderId}`,
    as: 'staff',
  },
  { file: 'admin/_staff/creator-applications.tsx', url: '/admin/creator-applications', as: 'staff' },
  { file: 'admin/_staff/finance.tsx', url: '/admin/finance', as: 'staff' },
  { file: 'admin/_staff/analytics.tsx', url: '/admin/analytics', as: 'staff' },
  { file: 'admin/_staff/coupons.tsx', url: '/admin/coupons', as: 'staff' },
  {
    file: 'admin/_staff/creator-applications_.$id.tsx',
    url: (seeded) => `/admin/creator-applications/${seeded.applicationId}`,
    as: 'staff',
  },
  { file: 'admin/_staff/$.tsx', url: '/admin/no-such-page', as: 'staff', status: 404 },

  { file: 'studio/index.tsx', url: '/studio', as: 'creator' },
  { file: 'studio/courses.new.tsx', url: '/studio/courses/new', as: 'creator' },
  {
    file: 'studio/courses.$courseId.index.tsx',
    url: (seeded) => `/studio/courses/${seeded.studioCourseId}`,
    as: 'creator',
  },
  {
    file: 'studio/courses.$courseId.curriculum.tsx',
    url: (seeded) => `/studio/courses/${seeded.studioCourseId}/curriculum`,
    as: 'creator',
  },
  {
    file: 'studio/courses/$courseId/publish.tsx',
    url: (seeded) => `/studio/courses/${seeded.studioCourseId}/publish`,
    as: 'creator',
  },
  {
    file: 'studio/courses.$courseId.quizzes.$lessonId.tsx',
    url: (seeded) => `/studio/courses/${seeded.studioCourseId}/quizzes/${seeded.quizLessonId}`,
    as: 'creator',
  },
  {
    file: 'admin/_staff/quizzes.$courseId.$lessonId.tsx',
    url: (seeded) => `/admin/quizzes/${seeded.quizCourseId}/${seeded.quizLessonId}`,
    as: 'staff',
  },
  // An invitation to co-teach with a token that matches none: the page says so.
  { file: '_auth/course-invite.tsx', url: '/course-invite?token=not-a-real-token', as: 'customer' },
  // A creator's school and team (issue 36): the owner's page (the school made on first use), an invitation whose
  // token matches none, a member's page of a school they are not on, and the creator's school's public page.
  { file: 'studio/school.tsx', url: '/studio/school', as: 'creator' },
  { file: 'studio/domain.tsx', url: '/studio/domain', as: 'creator' },
  // A school's API keys (decision 0060): the page says when the plan has no API.
  { file: 'studio/api.tsx', url: '/studio/api', as: 'creator' },
  { file: 'studio/sso.tsx', url: '/studio/sso', as: 'creator' },
  { file: 'studio/webhooks.tsx', url: '/studio/webhooks', as: 'creator' },
  { file: '_auth/school-invite.tsx', url: '/school-invite?token=not-a-real-token', as: 'customer' },
  // A school's invitation to take a course (decision 0128) whose token matches none.
  { file: '_auth/enrolment-invite.tsx', url: '/enrolment-invite?token=not-a-real-token', as: 'customer' },
  { file: '_auth/member.$schoolId.tsx', url: '/member/00000000-0000-4000-8000-000000000000', as: 'customer' },
  { file: '_auth/member.$schoolId_.api.tsx', url: '/member/00000000-0000-4000-8000-000000000000/api', as: 'customer' },
  { file: 's.$slug.tsx', url: (seeded) => `/s/${seeded.schoolSlug}`, as: 'creator' },
  { file: 'admin/_staff/course-reviews.tsx', url: '/admin/course-reviews', as: 'staff' },
  {
    file: 'admin/_staff/course-reviews_.$id.tsx',
    url: (seeded) => `/admin/course-reviews/${seeded.submissionId}`,
    as: 'staff',
  },
]

const ROUTES_DIR = path.resolve('src-client/routes')

/** Every route file under src-client/routes, relative to it. */
export function routeFiles(dir = ROUTES_DIR): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => path.relative(ROUTES_DIR, path.join(entry.parentPath, entry.name)))
    .sort()
}

/** Route files with no entry in the table (the message names them), and entries whose file is gone. */
export function tableGaps(files = routeFiles()) {
  const covered = new Set([...LAYOUT_FILES, ...ROUTES.map((route) => route.file.split('#')[0] ?? route.file)])
  return {
    missing: files.filter((file) => !covered.has(file)),
    stale: [...covered].filter((file) => !files.includes(file)),
  }
}

export function openE2eDatabase(): Kysely<Database> {
  const connectionString = process.env.E2E_DATABASE_URL
  if (!connectionString) throw new Error('E2E_DATABASE_URL is not set (run through Playwright)')
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString, max: 2 }) }) })
}

/**
 * A browser context for one kind of visitor, and the rows made for it. The customer has a paid course (My Courses,
 * order history), a paid service order, and a course and a plan in the cart (so /payment shows the checkout); staff
 * is an admin (every admin screen), with another buyer's service order and application to teach to open and an
 * entry in the audit log; a creator is a customer approved to teach, with an instructor profile.
 */
export async function contextFor(
  browser: Browser,
  db: Kysely<Database>,
  as: Visitor,
  options: { baseURL: string; width: number; height: number },
): Promise<{ context: BrowserContext; seeded: Seeded }> {
  const context = await browser.newContext({
    baseURL: options.baseURL,
    viewport: { width: options.width, height: options.height },
  })
  if (as === 'visitor') return { context, seeded: {} }
  const page = await context.newPage()
  const user = await createUser(db, {
    role: as === 'staff' ? 'admin' : 'customer',
    firstName: 'Ada',
    lastName: 'Lovelace',
  })
  const seeded: Seeded = {}
  if (as === 'creator') {
    // An approved creator with their instructor profile, owning a draft course in the studio.
    seeded.studioCourseId = await studioCourseOf(db, user.id)
    seeded.quizLessonId = await addQuizLesson(db, seeded.studioCourseId)
    const learner = await createUser(db, { firstName: 'Lena', lastName: 'Learner' })
    seeded.messageThreadId = await seedThread(db, seeded.studioCourseId, learner.id, [
      'A question about lesson 1',
      'How do I start?',
    ])
    // The creator's school (decision 0057), for its public page.
    seeded.schoolSlug = (await ensureSchool(db, user.id)).slug
  } else if (as === 'customer') {
    const stamp = Date.now().toString(36).toUpperCase()
    const orderId = await placeOrder(db, {
      userId: user.id,
      courseId: OWNED_COURSE,
      reference: `SF-A11Y-${stamp}`,
      status: 'paid',
      title: 'JavaScript Fundamentals',
    })
    // Its invoice, as the paying transaction issues it (an order with nothing captured gets none).
    await db
      .updateTable('orders')
      .set((eb) => ({ captured_minor: eb.ref('total_minor') }))
      .where('id', '=', orderId)
      .execute()
    await issueOrderInvoice(db, orderId, new Date())
    const invoice = await db
      .selectFrom('invoices')
      .select('id')
      .where('order_id', '=', orderId)
      .executeTakeFirstOrThrow()
    seeded.invoiceId = invoice.id
    // The right to open it, as staff would grant it (the order above is for the order history).
    await grant(db, { userId: user.id, right: { kind: 'course', courseId: OWNED_COURSE }, source: { kind: 'staff' } })
    seeded.serviceOrderId = await paidServiceOrder(db, user.id)
    const [firstLesson] = await listLessonIds(db, OWNED_COURSE)
    if (!firstLesson) throw new Error(`${OWNED_COURSE} has no lessons`)
    seeded.lessonId = firstLesson
    // A certificate is shown with the completion it was issued for (learning/repository.ts findCertificate).
    await db
      .insertInto('course_completions')
      .values({ user_id: user.id, course_id: OWNED_COURSE, lesson_count: 1, access_source: 'staff' })
      .execute()
    const certificate = await db
      .insertInto('certificates')
      .values({
        user_id: user.id,
        course_id: OWNED_COURSE,
        learner_name: 'Ada Lovelace',
        course_title: 'JavaScript Fundamentals',
        instructor_name: 'SkillForge Instructor',
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    seeded.certificateId = certificate.id
    await addCartItem(db, user.id, { kind: 'course', courseId: 'modern-react-typescript' })
    await addCartItem(db, user.id, { kind: 'plan', planId: 'pro', billingCycle: 'monthly' })
    seeded.bundleSlug = (
      await seedBundle(db, { courseIds: ['nodejs-api-development', 'sql-for-analysts'], priceMinor: 9999 })
    ).slug
  } else {
    const buyer = await createUser(db, { firstName: 'Grace', lastName: 'Hopper' })
    seeded.serviceOrderId = await paidServiceOrder(db, buyer.id)
    // A learner's message about a house course, which staff answer (decision 0140).
    seeded.messageThreadId = await seedThread(db, OWNED_COURSE, buyer.id, [
      'A question about the exercises',
      'Where are they?',
    ])
    const categories = await db.selectFrom('categories').select('id').orderBy('position').limit(2).execute()
    const application = await db
      .insertInto('creator_applications')
      .values({
        user_id: buyer.id,
        headline: 'Compiler engineer, teaches programming from first principles',
        category_ids: JSON.stringify(categories.map((c) => c.id)),
        proposal: 'A course on how programs become machine code: parsing, types, code generation. '.repeat(5),
        links: JSON.stringify({
          website: `https://example.com/${'a-long-unbroken-path-segment-'.repeat(4)}`,
          linkedin: 'https://www.linkedin.com/in/grace-hopper',
        }),
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    seeded.applicationId = application.id
    // A creator's draft course waiting in the review queue.
    const reviewed = await createUser(db, { firstName: 'Mary', lastName: 'Somerville' })
    const reviewedCourse = await studioCourseOf(db, reviewed.id)
    // Another creator's course with a quiz lesson (staff edit quizzes too).
    seeded.quizCourseId = await studioCourseOf(
      db,
      (await createUser(db, { firstName: 'Emmy', lastName: 'Noether' })).id,
    )
    seeded.quizLessonId = await addQuizLesson(db, seeded.quizCourseId)
    await db.updateTable('courses').set({ status: 'in_review' }).where('id', '=', reviewedCourse).execute()
    const submission = await db
      .insertInto('course_submissions')
      .values({ course_id: reviewedCourse, kind: 'first', submitted_by: reviewed.id })
      .returning('id')
      .executeTakeFirstOrThrow()
    seeded.submissionId = submission.id
    // An audit entry whose before and after are long (many fields, an unbroken URL), so /admin/audit shows them.
    const course = {
      title: 'JavaScript Fundamentals',
      description: 'Learn the language of the web from variables to async code. '.repeat(4),
      imageUrl: `https://cdn.example.test/${'very-long-path-segment-'.repeat(8)}cover.png`,
      price: '49.99',
      level: 'beginner',
      status: 'published',
      featured: true,
      tags: ['javascript', 'web', 'programming', 'beginner'],
    }
    await record(db, user, 'course.update', {
      type: 'course',
      id: OWNED_COURSE,
      before: course,
      after: { ...course, price: '39.99', status: 'draft' },
    })
  }
  await signInAs(page, options.baseURL, db, user)
  await page.close()
  return { context, seeded }
}
