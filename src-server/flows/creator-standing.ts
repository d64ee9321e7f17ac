// A creator's plan and what it allows against what they use: the studio's counts ("3 of 5 published courses") and
// the server's checks before a course is submitted or a video upload starts.

import {
  type CreatorLimitOverrides,
  type CreatorLimits,
  type CreatorPlanFeature,
  planIncludes,
  planIncludesPromotions,
} from '../../src-shared/creator-plans.ts'
import { countPublishingSlotsUsed } from '../catalog/creator-courses.ts'
import { limitsFor, storageUsedBytes } from '../creators/limits.ts'
import * as clock from '../kernel/clock.ts'
import { type DB, lockKeyForTransaction } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { currentSubscription } from '../subscriptions/premium.ts'

export interface CreatorStanding {
  /** The live plan's id (basic, pro, enterprise), or null without one. */
  planId: string | null
  planName: string | null
  /** null: no live plan, so nothing can be submitted or uploaded. */
  limits: CreatorLimits | null
  publishedCourses: number
  storageUsedBytes: number
}

export async function creatorStanding(
  db: DB,
  userId: string,
  overrides?: CreatorLimitOverrides,
  now = clock.now(),
): Promise<CreatorStanding> {
  const [subscription, publishedCourses, used] = await Promise.all([
    currentSubscription(db, userId, now),
    countPublishingSlotsUsed(db, userId),
    storageUsedBytes(db, userId),
  ])
  const planId = subscription?.held_plan_id ?? null
  return {
    planId,
    planName: subscription?.name ?? subscription?.gift_plan_name ?? null,
    limits: limitsFor(planId, overrides),
    publishedCourses,
    storageUsedBytes: used,
  }
}

export const NO_PLAN_MESSAGE = 'Choose a plan to publish courses and upload videos: see Pricing'
/** A course team member's upload, counted against the course owner's plan, which is not live (decision 0138). */
export const OWNER_NO_PLAN_MESSAGE =
  'This course’s videos are stored on its owner’s plan, which is not active: ask the owner to choose a plan'

/** Refuses a new publishing slot (a submission for review, or staff approval) beyond the plan's limit. */
export function assertPublishingSlot(standing: CreatorStanding): void {
  if (!standing.limits) throw new DomainError('precondition', NO_PLAN_MESSAGE)
  const max = standing.limits.publishedCourses
  if (max !== null && standing.publishedCourses >= max) {
    throw new DomainError(
      'precondition',
      `Your ${standing.planName ?? ''} plan publishes up to ${max} courses: upgrade your plan to publish more`.replace(
        /\s+/g,
        ' ',
      ),
    )
  }
}

/**
 * Refuses an upload of `bytes` more than the plan's storage leaves; `whose`: the uploader's own plan, or the course
 * owner's plan counting a co-instructor's upload (decision 0138), which the refusal names.
 */
export function assertStorageFor(standing: CreatorStanding, bytes: number, whose: 'yours' | 'owner' = 'yours'): void {
  if (!standing.limits)
    throw new DomainError('precondition', whose === 'owner' ? OWNER_NO_PLAN_MESSAGE : NO_PLAN_MESSAGE)
  const max = standing.limits.storageBytes
  if (max !== null && standing.storageUsedBytes + bytes > max) {
    throw new DomainError(
      'precondition',
      whose === 'owner'
        ? 'This upload would pass the video storage of the course owner’s plan: ask the owner to upgrade or delete videos'
        : 'This upload would pass your plan’s video storage: upgrade your plan or delete videos',
    )
  }
}

/** Each feature's name as a refusal's subject, with its verb ("Webhooks come", "The API comes"). */
const FEATURE_NAMES: Record<CreatorPlanFeature, string> = {
  api: 'The API comes',
  webhooks: 'Webhooks come',
  sso: 'Single sign-on comes',
  customDomain: 'A custom domain comes',
  whiteLabel: 'White-label branding comes',
}

/**
 * Whether the school owner's live plan includes an enterprise feature (API keys, webhooks, SSO, custom domain, white
 * label). Pass the school's owner id: the owner's plan is the school's, and a lapsed one includes none.
 */
export async function ownerPlanIncludes(db: DB, ownerId: string, feature: CreatorPlanFeature, now = clock.now()) {
  const subscription = await currentSubscription(db, ownerId, now)
  return planIncludes(subscription?.held_plan_id, feature)
}

/** Whether the creator's live plan includes coupons and bundles (Pro and Enterprise); a lapsed one does not. */
export async function ownerPlanIncludesPromotions(db: DB, ownerId: string, now = clock.now()) {
  return planIncludesPromotions((await currentSubscription(db, ownerId, now))?.held_plan_id)
}

/** Refuses an enterprise feature unless the school owner's live plan includes it (ownerPlanIncludes). */
export async function assertPlanIncludes(db: DB, ownerId: string, feature: CreatorPlanFeature, now = clock.now()) {
  if (!(await ownerPlanIncludes(db, ownerId, feature, now))) {
    const plan = feature === 'customDomain' ? 'Pro or Enterprise' : 'Enterprise'
    throw new DomainError('precondition', `${FEATURE_NAMES[feature]} with the ${plan} plan: see Pricing`)
  }
}

/**
 * Runs the owner's publishing-slot checks and the writes that fill a slot (republish, submit, approve) one at a time:
 * each re-reads the standing after taking the lock, so two at once can never both take the last slot.
 */
export async function lockPublishingSlots(trx: DB, ownerId: string): Promise<void> {
  await lockKeyForTransaction(trx, `creator-slots:${ownerId}`)
}

/** The same for the owner's team seats: an invitation or an acceptance counts the team under this lock. */
export async function lockTeamSeats(trx: DB, ownerId: string): Promise<void> {
  await lockKeyForTransaction(trx, `creator-team:${ownerId}`)
}
