// A creator turns their own codes off and on again in the studio (studioCoupons.disable / enable): only their own
// (another creator's code is not found, for either), on again only on a plan with coupons, and never by a learner.
import { describe, expect, it } from 'vitest'
import { COUPON_MESSAGES } from '../../../src-shared/promotions.ts'
import { createCreator, lapsePlan } from '../../support/creator-courses.ts'
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
  return { owner, studio, couponId: coupon.id }
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
