// A school's own domain is that school's site (decision 0143, amending 0063): its home is the school's page, its
// catalogue is the school's courses, and what a learner of the school needs (course pages of its courses, cart and
// checkout, log-in, account, learning of its courses, certificates of its courses, legal pages) is served there; the
// marketplace's own pages, and the player or a certificate of a course that is not the school's, go to the
// marketplace's origin. One rule for the server's first hook (a page loaded) and the client's router (a link
// followed), by the path's first segment; every page of the app is named here (tests/unit/page-routes.test.ts).

/**
 * What each first segment of a page's path is on a school's domain:
 * - `school`: served as it is (the learner's pages);
 * - `home`: the marketplace's home and catalogue, whose school-site counterpart is the school's page;
 * - `marketplace`: the marketplace's (or the platform's team's) pages, sent to the same address on its origin;
 * - `course`, `bundle`, `schoolPage`: served when it is this school's, else sent to the marketplace;
 * - `learning`: the player (/learn/{course}/…), served when its course is this school's, as a course page is;
 * - `certificate`: a certificate's page, served when the course it was earned in is this school's;
 * - `account`: the learner's account, served, but a conversation with a course's instructors
 *   (/account/messages/{course}) is checked by its course, and Premium and the business services are the
 *   marketplace's;
 * - `auth`: the school's (callback, single sign-on), but Google's and Facebook's sign-in start on the platform.
 */
export const SCHOOL_SITE_SEGMENTS = {
  '': 'home',
  courses: 'course',
  bundles: 'bundle',
  s: 'schoolPage',
  auth: 'auth',
  // The marketplace's own pages (what SkillForge sells and says about itself), and the platform's team's areas.
  about: 'marketplace',
  blog: 'marketplace',
  careers: 'marketplace',
  contact: 'marketplace',
  examples: 'marketplace',
  features: 'marketplace',
  pricing: 'marketplace',
  resources: 'marketplace',
  services: 'marketplace',
  service: 'marketplace',
  teach: 'marketplace',
  instructors: 'marketplace',
  handoff: 'marketplace',
  studio: 'marketplace',
  admin: 'marketplace',
  // What a learner of the school needs.
  account: 'account',
  cart: 'school',
  certificates: 'certificate',
  cookies: 'school',
  'course-invite': 'school',
  documents: 'school',
  'enrolment-invite': 'school',
  'forgot-password': 'school',
  gifts: 'school',
  learn: 'learning',
  live: 'school',
  login: 'school',
  member: 'school',
  payment: 'school',
  'payment-success': 'school',
  privacy: 'school',
  'reset-password': 'school',
  'school-invite': 'school',
  security: 'school',
  signup: 'school',
  terms: 'school',
  'two-factor': 'school',
  'verify-email': 'school',
  'change-email': 'school',
  mail: 'school',
} as const satisfies Record<
  string,
  | 'school'
  | 'home'
  | 'marketplace'
  | 'course'
  | 'learning'
  | 'certificate'
  | 'account'
  | 'bundle'
  | 'schoolPage'
  | 'auth'
>

/** The account's pages that are the marketplace's: its Premium membership and its business services' orders. */
const MARKETPLACE_ACCOUNT_PAGES = new Set(['premium', 'membership', 'services'])

/** Where a page asked for on a school's domain goes, before anything is looked up. */
export type SchoolSitePlace =
  | { to: 'home' }
  | { to: 'marketplace' }
  /** A course's page or its player: served when the course is the school's (its owner's), else the marketplace's. */
  | { to: 'course'; courseId: string }
  | { to: 'bundle'; slug: string }
  /** A certificate's page: served when the course it was earned in is the school's. */
  | { to: 'certificate'; certificateId: string }
  /** A school's page: served when it is this school's (its slug, lower-case), else the marketplace's page. */
  | { to: 'schoolPage'; slug: string }

/** What a place that depends on its course, bundle or certificate asks (the input of `domains.serves`). */
export type SitePage = { courseId: string } | { bundleSlug: string } | { certificateId: string }

export function sitePageOf(place: Extract<SchoolSitePlace, { to: 'course' | 'bundle' | 'certificate' }>): SitePage {
  switch (place.to) {
    case 'course':
      return { courseId: place.courseId }
    case 'bundle':
      return { bundleSlug: place.slug }
    case 'certificate':
      return { certificateId: place.certificateId }
  }
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

/**
 * The place of a path (no query) on a school's domain; null: served as it is (the learner's pages, and everything that
 * is not a page: the API, files, scripts). Pure and cheap: the server asks it only under a school's Host.
 */
export function schoolSitePlace(pathname: string): SchoolSitePlace | null {
  const parts = pathname.split('/')
  // parts[0] is '' (the path starts with '/'); '/' and '' are the home.
  const first = parts[1] ?? ''
  const second = parts[2] ?? ''
  const kind = Object.hasOwn(SCHOOL_SITE_SEGMENTS, first)
    ? SCHOOL_SITE_SEGMENTS[first as keyof typeof SCHOOL_SITE_SEGMENTS]
    : null
  switch (kind) {
    case 'home':
      return parts.length <= 2 ? { to: 'home' } : null
    case 'marketplace':
      return { to: 'marketplace' }
    case 'course':
      // The catalogue (/courses, its categories) is the school's page there; a course page is checked.
      if (second === '' || second === 'category') return { to: 'home' }
      return { to: 'course', courseId: decoded(second) }
    case 'learning':
      return second ? { to: 'course', courseId: decoded(second) } : null
    case 'certificate':
      return second ? { to: 'certificate', certificateId: decoded(second) } : null
    case 'account': {
      // Premium and the business services are the marketplace's, as /pricing and /services are.
      if (MARKETPLACE_ACCOUNT_PAGES.has(second)) return { to: 'marketplace' }
      const course = second === 'messages' ? (parts[3] ?? '') : ''
      return course ? { to: 'course', courseId: decoded(course) } : null
    }
    case 'bundle':
      return second ? { to: 'bundle', slug: decoded(second) } : null
    case 'schoolPage':
      return second ? { to: 'schoolPage', slug: decoded(second).toLowerCase() } : null
    case 'auth':
      // Google and Facebook return to the platform's registered address, so their sign-in starts there too.
      return second === 'google' || second === 'facebook' ? { to: 'marketplace' } : null
    default:
      return null
  }
}
