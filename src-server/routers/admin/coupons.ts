// Staff coupons (/admin/coupons): everyone on the team reads them with their uses and revenue; editors and up make
// them and switch them off (audited).
import { couponIdInput, couponInput } from '../../../src-shared/schemas/promotions.ts'
import { createStoreCoupon, listStoreCoupons, setStoreCouponActive } from '../../flows/coupon-admin.ts'
import { router, staffProcedure } from '../../trpc/init.ts'
import { actorOf } from './actor.ts'

export const adminCouponsRouter = router({
  list: staffProcedure('viewer').query(({ ctx }) => listStoreCoupons(ctx.db)),
  create: staffProcedure('editor')
    .input(couponInput)
    .mutation(({ ctx, input }) => createStoreCoupon(ctx.db, input, actorOf(ctx.user))),
  disable: staffProcedure('editor')
    .input(couponIdInput)
    .mutation(({ ctx, input }) => setStoreCouponActive(ctx.db, input.couponId, false, actorOf(ctx.user))),
  enable: staffProcedure('editor')
    .input(couponIdInput)
    .mutation(({ ctx, input }) => setStoreCouponActive(ctx.db, input.couponId, true, actorOf(ctx.user))),
})
