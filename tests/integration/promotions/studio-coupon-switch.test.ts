// A creator turns their own codes off and on again in the studio (studioCoupons.disable / enable): only their own
// (another creator's code is not found, for either), on again only on a plan with coupons, and never by a learner.
// A creator's code is offered while their plan includes coupons: it stops applying when the plan lapses.
import { describe, expect, it } from 'vitest'
import { createFromCart } from '../../../src-server/flows/cart-order.ts'
import { COUPON_MESSAGES, COUPON_REFUSALS } from '../../../src-shared/promotions.ts'
import { createCreator, lapsePlan, restorePlan } from '../../support/creator-courses.ts'
import { ownedCourse } from '../../support/earnings.ts'
import { callerAs, createUser } from '../../support/factories.ts'
import { serveForThisFile } from '../../support/test-server.ts'

const site = serveForThisFile()
let seq = 0

async function creatorWithCode() {
  const owner = await createCreator(site.db, { plan: 'pro' })
  const studio = await callerAs(site.db, owner)
  const code = `SWITCH${Date.now().toString(36).toUpperCase()}${seq++}`
  await studio.studioCoupons.create({
    code,
    kind: 'percent',
    percentOff: 10,
    appliesTo: 'creator',
    creatorId: owner.id,
  })
  const coupon = (await studio.studioCoupons.list()).coupons.find((c) => c.code === code)
  if (!coupon) throw new Error('the new code should be listed')
  return { owner, studio, couponId: coupon.id, code }
}

const activeOf = async (couponId: string) =>
  (await site.db.selectFrom('coupons').select('active').where('id', '=', couponId).executeTakeFirstOrThrow()).active

describe('turning a studio code off and on', () => {
  it('the owner turns it off and on again', async () => {
    const { studio, couponId } = await creatorWithCode()
    await studio.studioCoupons.disable({ couponId })
    expect(await activeOf(couponId)).toBe(false)
    expect(await studio.studioCoupons.enable({ couponId })).toEqual({ id: couponId, active: true })
    expect(await activeOf(couponId)).toBe(true)
  })

  it("another creator can neither turn it off nor on, and a learner may not call the studio's procedures", async () => {
    const { studio, couponId } = await creatorWithCode()
    await studio.studioCoupons.disable({ couponId })
    const other = await callerAs(site.db, await createCreator(site.db, { plan: 'pro' }))
    await expect(other.studioCoupons.enable({ couponId })).rejects.toThrow(COUPON_MESSAGES.notFound)
    await expect(other.studioCoupons.disable({ couponId })).rejects.toThrow(COUPON_MESSAGES.notFound)
    const learner = await callerAs(site.db, await createUser(site.db))
    await expect(learner.studioCoupons.enable({ couponId })).rejects.toMatchObject({ code: 'FORBIDDEN' })
    expect(await activeOf(couponId)).toBe(false)
  })

  it('once the plan has lapsed a code may be turned off but not on again', async () => {
    const { owner, studio, couponId } = await creatorWithCode()
    await lapsePlan(site.db, owner.id)
    await studio.studioCoupons.disable({ couponId })
    await expect(studio.studioCoupons.enable({ couponId })).rejects.toThrow(COUPON_MESSAGES.planRequired)
    expect(await activeOf(couponId)).toBe(false)
  })
})

describe('a creator’s code after their plan lapses', () => {
  it('stops applying (cart, Apply code, checkout) and applies again with a plan that has coupons', async () => {
    const { owner, code } = await creatorWithCode()
    const course = await ownedCourse(site.db, owner.id, 2_000)
    const buyer = await createUser(site.db)
    const shop = await callerAs(site.db, buyer)
    await shop.cart.add({ kind: 'course', courseId: course.id })
    await shop.cart.applyCoupon({ code })
    expect((await shop.cart.list())?.totals[0]?.discountMinor).toBe(200)

    await lapsePlan(site.db, owner.id)
    const cart = await shop.cart.list()
    expect(cart?.coupon).toMatchObject({ code, applies: false, refusal: COUPON_REFUSALS.withdrawn })
    expect(cart?.totals[0]?.discountMinor).toBe(0)
    await expect(shop.cart.applyCoupon({ code })).rejects.toThrow(COUPON_REFUSALS.withdrawn)
    const checkout = {
      userId: buyer.id,
      currency: 'USD' as const,
      method: 'bank_transfer' as const,
      referencePrefix: 'SF',
    }
    await expect(createFromCart(site.db, checkout)).rejects.toThrow(COUPON_REFUSALS.withdrawn)

    await restorePlan(site.db, owner.id)
    expect((await shop.cart.list())?.coupon).toMatchObject({ applies: true, refusal: null })
    expect((await createFromCart(site.db, checkout)).totalMinor).toBe(1_800)
  })
})
