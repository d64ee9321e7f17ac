// The plan limits in force for a creator and what they use of them. Which plan a creator holds is the
// subscriptions leaf's answer; flows/creator-standing.ts puts the two together.
import {
  CREATOR_PLAN_LIMITS,
  type CreatorLimitOverrides,
  type CreatorLimits,
  isCreatorPlanId,
} from '../../src-shared/creator-plans.ts'
import type { DB } from '../kernel/db.ts'

/** The limits of a plan, or null when the creator holds no live plan (drafts only: nothing can be submitted). */
export function limitsFor(planId: string | null, overrides: CreatorLimitOverrides = {}): CreatorLimits | null {
  if (!isCreatorPlanId(planId)) return null
  return { ...CREATOR_PLAN_LIMITS[planId], ...overrides[planId] }
}

/**
 * Bytes of finished uploads the creator's plan counts (uploads in progress and released ones do not): their own and
 * those their course teams made for their courses (decision 0138), not those they made for others' courses.
 */
export async function storageUsedBytes(db: DB, userId: string): Promise<number> {
  const row = await db
    .selectFrom('creator_uploads')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<string | number>('size_bytes'), eb.lit(0)).as('used'))
    .where('storage_owner_id', '=', userId)
    .where('status', '=', 'stored')
    // A lesson video they uploaded as staff is the shop's, not their plan's.
    .where('staff_upload', '=', false)
    // Nor is the sample video of their application to teach.
    .where('purpose', '=', 'lesson')
    .executeTakeFirstOrThrow()
  return Number(row.used)
}
