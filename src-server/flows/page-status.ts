// The HTTP status of a page the client renders: 200 for a page that exists, 404 for an unknown path or an id
// that names nothing (so crawlers never index a not-found page). The SPA fallback (client.ts) asks it for every
// page request; a server renderer can ask the same function. One table of every client route: a route with a
// parameter names the owner's existence check. tests/unit/page-routes.test.ts fails when a client route is
// missing here (or an entry here has no client route).

import { instructorSlugExists } from '../catalog/instructors.ts'
import { categorySlugExists, publishedCourseExists } from '../catalog/repository.ts'
import { learnableCourseExists, learnableLessonExists } from '../catalog/repository-lessons.ts'
import { schoolSlugExists } from '../creators/schools.ts'
import type { DB } from '../kernel/db.ts'
import { certificateExists } from '../learning/repository.ts'
import { bundleSlugExists } from '../promotions/bundles.ts'
import { serviceExists } from '../services/repository.ts'

export type PageStatus = 200 | 404
type Exists = (db: DB, param: string) => Promise<boolean>

/**
 * Client route paths (TanStack's `$param` syntax); `exists` answers for the one parameter of the path. Public pages
 * with a parameter must have it; signed-in ones (/account, /admin, /documents, /studio) need none.
 */
export const PAGE_ROUTES: readonly { path: string; exists?: Exists }[] = [
  ...[
    '/',
    '/about',
    '/blog',
    '/careers',
    '/cart',
    '/contact',
    '/cookies',
    '/examples',
    '/features',
    '/forgot-password',
    '/login',
    '/payment',
    '/payment-success',
    '/pricing',
    '/privacy',
    '/reset-password',
    '/resources',
    '/security',
    '/services',
    '/signup',
    '/terms',
    '/two-factor',
    '/verify-email',
    '/change-email',
    '/mail/unsubscribe',
    '/gifts/new',
    '/gifts/claim',
    '/cart/restore',
    '/cart/reminders/unsubscribe',
    '/account',
    '/account/membership',
    '/account/premium',
    '/account/security',
    '/account/sso-link',
    '/handoff',
    '/auth/callback',
    '/courses',
    '/admin',
    '/admin/login',
    '/admin/accept-invite',
    '/admin/audit',
    '/admin/categories',
    '/admin/courses',
    '/admin/orders',
    '/admin/customers',
    '/admin/outbox',
    '/admin/support',
    '/admin/chat',
    '/admin/reviews',
    '/admin/users',
    '/studio/uploads',
    '/course-invite',
    '/enrolment-invite',
    '/admin/course-reviews',
    '/teach',
    '/teach/apply',
    '/teach/application',
    '/studio/profile',
    '/admin/creator-applications',
    '/admin/creator-applications/$id',
    // Signed-in pages (not for crawlers): the page itself says when its id names nothing the visitor may see.
    '/account/services/$id',
    '/documents/$kind/$documentId',
    '/admin/service-orders',
    '/admin/service-orders/$id',
    '/admin/course-reviews/$id',
    '/studio/courses/$courseId/publish',
    // The creator studio (signed-in creators; the page says when a course id is not theirs).
    '/studio',
    '/studio/courses/new',
    '/studio/courses/$courseId',
    '/studio/courses/$courseId/curriculum',
    // Quiz editors (issue 33): the course's team in the studio, staff editors in the admin.
    '/studio/courses/$courseId/quizzes/$lessonId',
    '/admin/quizzes/$courseId/$lessonId',
    // Creators' money (issue 31) and staff finance.
    '/studio/earnings',
    '/studio/payouts',
    '/admin/finance',
    // Analytics (issue 35).
    '/studio/analytics',
    '/admin/analytics',
    // Bundles (issue 32).
    '/studio/bundles',
    '/admin/bundles',
    // Coupons (issue 32).
    '/admin/coupons',
    '/studio/coupons',
    // Reported posts under lessons (issue 33): staff every course's, instructors their own.
    '/admin/reported-posts',
    '/studio/reported-posts',
    // Messages to instructors (issue 34): signed-in pages; the server answers a thread not theirs as not found.
    '/account/messages',
    '/account/messages/$courseId',
    '/studio/messages',
    '/studio/messages/$threadId',
    '/admin/messages',
    '/admin/messages/$threadId',
    // Live sessions (issue 34).
    '/live',
    '/live/manage',
    '/studio/live',
    // A creator's school and team (issue 36): the owner's page, the invitation, a member's page.
    '/studio/school',
    // Outgoing webhooks (issue 36, decision 0061): the school owner's endpoints and delivery log.
    '/studio/webhooks',
    '/school-invite',
    '/member/$schoolId',
    // A finance member's own API keys for the school (issue 36, decision 0060).
    '/member/$schoolId/api',
    // A school's own domain and brand (issue 36, decision 0063).
    '/studio/domain',
    // A school's API keys (issue 36, decision 0060).
    '/studio/api',
    // Single sign-on per school (issue 36, decision 0062): the owner's settings.
    '/studio/sso',
  ].map((path) => ({ path })),
  { path: '/courses/$courseId', exists: publishedCourseExists },
  { path: '/courses/category/$slug', exists: categorySlugExists },
  { path: '/service/$serviceId', exists: serviceExists },
  { path: '/learn/$courseId', exists: learnableCourseExists },
  // Two parameters: the table checks the last, the lesson (of a course that is not a draft).
  { path: '/learn/$courseId/$lessonId', exists: learnableLessonExists },
  { path: '/certificates/$certificateId', exists: certificateExists },
  { path: '/instructors/$slug', exists: instructorSlugExists },
  { path: '/bundles/$slug', exists: bundleSlugExists },
  { path: '/s/$slug', exists: schoolSlugExists },
]

/** Client routes that render the not-found page themselves: always 404. */
export const NOT_FOUND_ROUTES = ['/admin/$'] as const

const split = (path: string) => path.split('/').filter(Boolean)
const compiled = PAGE_ROUTES.map((route) => ({ ...route, segments: split(route.path) }))

export async function statusForPath(db: DB, pathname: string): Promise<PageStatus> {
  let segments: string[]
  try {
    segments = split(pathname).map((segment) => decodeURIComponent(segment))
  } catch {
    return 404 // a malformed escape names no page
  }
  for (const route of compiled) {
    if (route.segments.length !== segments.length) continue
    let param: string | undefined
    const matches = route.segments.every((part, index) => {
      if (part.startsWith('$')) {
        param = segments[index]
        return true
      }
      return part === segments[index]
    })
    if (!matches) continue
    if (!route.exists || param === undefined) return 200
    return (await route.exists(db, param)) ? 200 : 404
  }
  return 404
}
