// Business constants of spec §9, shared by client and server.
/** The image shown where a course, profile or service has none of its own. */
export const PLACEHOLDER_IMAGE_URL = '/placeholder.svg'
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024
export const STORAGE_CACHE_CONTROL_SECONDS = 3600
export const VIDEO_AUTO_ADVANCE_MS = 15_000
export const PROMO_VIDEO_COUNT = 3
export const FEATURED_SERVICES_LIMIT = 3
export const FALLBACK_FEATURED_COURSES = 4
export const CATALOGUE_PAGE_SIZE = 12
export const PASSWORD_MIN_LENGTH = 8
export const SIGNUP_REDIRECT_MS = 3000
export const COPY_INDICATOR_MS = 2000
/** Every plan starts with a free trial of this many days (pricing page, terms, Stripe Checkout, fulfilment). */
export const TRIAL_DAYS = 7
/** Premium outlives an unpaid period by this many days (a failed card is retried; a transfer may be late), then lapses. */
export const PREMIUM_GRACE_DAYS = 3
export const INITIALS_MAX = 2
export const TOAST_DURATION_MS = 4000
export const TOAST_MAX_VISIBLE = 3

export const COURSE_CATEGORIES = ['Development', 'Business', 'Marketing', 'Design'] as const
export const COURSE_LEVELS = ['beginner', 'intermediate', 'advanced'] as const
export type CourseLevel = (typeof COURSE_LEVELS)[number]
export const COURSE_STATUSES = ['draft', 'published'] as const
export type CourseStatus = (typeof COURSE_STATUSES)[number] | 'archived'
export const TEAM_ROLES = ['admin', 'editor', 'viewer'] as const

/** Price filter bands in minor units; $50-$100 is inclusive at both ends (spec §9). */
export const PRICE_BANDS = {
  free: { label: 'Free', min: 0, max: 0 },
  under50: { label: 'Under $50', min: 1, max: 4999 },
  '50to100': { label: '$50-$100', min: 5000, max: 10000 },
  over100: { label: 'Over $100', min: 10001, max: null },
} as const
export type PriceBand = keyof typeof PRICE_BANDS

export const DURATION_BANDS = {
  '0-3': { label: '0-3 hours', minMinutes: 0, maxMinutes: 180 },
  '3-6': { label: '3-6 hours', minMinutes: 181, maxMinutes: 360 },
  '6-12': { label: '6-12 hours', minMinutes: 361, maxMinutes: 720 },
  '12+': { label: '12+ hours', minMinutes: 721, maxMinutes: null },
} as const
export type DurationBand = keyof typeof DURATION_BANDS

export const RATING_FLOORS = [4, 3, 2, 1] as const

export const SORT_OPTIONS = {
  popular: 'Most Popular',
  rating: 'Highest Rated',
  newest: 'Newest',
  'price-asc': 'Price: Low to High',
  'price-desc': 'Price: High to Low',
} as const
export type SortOption = keyof typeof SORT_OPTIONS

/** Capitalises a level for display: 'beginner' → 'Beginner' (spec §3). */
export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}
