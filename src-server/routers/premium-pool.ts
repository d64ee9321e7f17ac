// The Premium pool in the studio: a course's Premium switch (owner only) and the creator's pool shares per course.
// Creators only; every course through its editor check, every share the caller's own.

import { offlineSettingInput, premiumInclusionInput } from '../../src-shared/schemas/premium-pool.ts'
import { courseRef } from '../../src-shared/schemas/studio.ts'
import { changeOfflineSetting, offlineSetting } from '../flows/offline-lessons.ts'
import { creatorPremiumPool, premiumInclusion, setPremiumInclusion } from '../flows/premium-pool-studio.ts'
import { creatorProcedure, router } from '../trpc/init.ts'

export const premiumPoolRouter = router({
  inclusion: creatorProcedure
    .input(courseRef)
    .query(({ ctx, input }) => premiumInclusion(ctx.db, ctx.user.id, input.courseId)),

  setInclusion: creatorProcedure
    .input(premiumInclusionInput)
    .mutation(({ ctx, input }) => setPremiumInclusion(ctx.db, ctx.user, input.courseId, input.included)),

  /** Whether the course's buyers may save its lessons for offline (Premium members always may). */
  offline: creatorProcedure
    .input(courseRef)
    .query(({ ctx, input }) => offlineSetting(ctx.db, ctx.user.id, input.courseId)),

  setOffline: creatorProcedure
    .input(offlineSettingInput)
    .mutation(({ ctx, input }) => changeOfflineSetting(ctx.db, ctx.user, input.courseId, input.allowed)),

  mine: creatorProcedure.query(({ ctx }) => creatorPremiumPool(ctx.db, ctx.user.id)),
})
