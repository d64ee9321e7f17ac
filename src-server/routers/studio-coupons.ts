// A creator's coupons (/studio/coupons): Pro and Enterprise creators make codes for their own courses.
import { couponIdInput, couponInput } from '../../src-shared/schemas/promotions.ts'
import { createCreatorCoupon, listCreatorCoupons, setCreatorCouponActive } from '../flows/coupon-admin.ts'
import { creatorProcedure, router } from '../trpc/init.ts'

export const studioCouponsRouter = router({
  list: creatorProcedure.query(({ ctx }) => listCreatorCoupons(ctx.db, ctx.user.id)),
  create: creatorProcedure
    .input(couponInput)
    .mutation(({ ctx, input }) => createCreatorCoupon(ctx.db, ctx.user.id, input)),
  disable: creatorProcedure
    .input(couponIdInput)
    .mutation(({ ctx, input }) => setCreatorCouponActive(ctx.db, ctx.user.id, input.couponId, false)),
  /** Turns one of their disabled codes back on (the table offers Enable, as staff's does). */
  enable: creatorProcedure
    .input(couponIdInput)
    .mutation(({ ctx, input }) => setCreatorCouponActive(ctx.db, ctx.user.id, input.couponId, true)),
})
