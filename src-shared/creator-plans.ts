// What each plan lets a creator do (the /pricing promises): published courses, video storage, team size. null means
// unlimited. The server enforces these (creators/limits.ts); the studio and /teach show them from here.
export type CreatorPlanId = 'basic' | 'pro' | 'enterprise'

export interface CreatorLimits {
  /** Courses on sale at once (published, or in review towards it). */
  publishedCourses: number | null
  /** Bytes of lesson video stored (finished uploads not released). */
  storageBytes: number | null
  /** People besides the owner who may co-edit the creator's courses. */
  teamMembers: number | null
}

/** Per-plan overrides of the limits (CREATOR_STORAGE_LIMIT_BYTES sets a small storage limit for tests). */
export type CreatorLimitOverrides = Partial<Record<CreatorPlanId, Partial<CreatorLimits>>>

const GB = 1024 ** 3

export const CREATOR_PLAN_LIMITS: Record<CreatorPlanId, CreatorLimits> = {
  basic: { publishedCourses: 5, storageBytes: 10 * GB, teamMembers: 0 },
  pro: { publishedCourses: 25, storageBytes: 100 * GB, teamMembers: 3 },
  enterprise: { publishedCourses: null, storageBytes: null, teamMembers: null },
}

export function isCreatorPlanId(id: string | null | undefined): id is CreatorPlanId {
  return id === 'basic' || id === 'pro' || id === 'enterprise'
}

/**
 * The platform's fee on a creator's sale, in basis points of the line's net (after discount, before tax), by the
 * creator's plan at the moment of sale; a creator without a live plan (a lapse) pays Basic's.
 */
export const PLATFORM_FEE_BASIS_POINTS: Record<CreatorPlanId, number> = { basic: 1000, pro: 500, enterprise: 0 }

export function platformFeeBasisPoints(planId: string | null | undefined): number {
  return PLATFORM_FEE_BASIS_POINTS[isCreatorPlanId(planId) ? planId : 'basic']
}

/** Days a sale's share waits (the refund window) before it can be paid out. */
export const EARNINGS_HOLD_DAYS = 30

/** The largest single lesson video a creator may upload (4 GB). */
export const CREATOR_VIDEO_MAX_BYTES = 4 * GB

/** The enterprise promises of /pricing, by plan: Pro's custom domain; Enterprise's API, webhooks, SSO and white label. */
export type CreatorPlanFeature = 'api' | 'webhooks' | 'sso' | 'customDomain' | 'whiteLabel'

export const CREATOR_PLAN_FEATURES: Record<CreatorPlanId, readonly CreatorPlanFeature[]> = {
  basic: [],
  pro: ['customDomain'],
  enterprise: ['api', 'webhooks', 'sso', 'customDomain', 'whiteLabel'],
}

/** Whether a creator's live plan (null: none) promises "Coupons, bundles and drip content": Pro and Enterprise. */
export function planIncludesPromotions(planId: string | null | undefined): boolean {
  return planId === 'pro' || planId === 'enterprise'
}

/** Whether a creator's live plan (null: none) includes the feature. */
export function planIncludes(planId: string | null | undefined, feature: CreatorPlanFeature): boolean {
  return isCreatorPlanId(planId) && CREATOR_PLAN_FEATURES[planId].includes(feature)
}
