// The 2026-12-30 coupon audit (decision 0147). A bundle's courses are ordinary course lines for a code: a creator's
// "All your courses" code discounts their own bundle, and a code for one course takes its part off that course's
// share of a bundle, the same in the cart as in the order checkout stores. The coupon tables say where a code stands
// (Ended, Used up, Scheduled, Active, Off) from the server, what it covers and asks; an end date already past is
// refused when the code is made; a cart under the minimum is told the minimum.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createFromCart } from '../../../src-server/flows/cart-order.ts'
import { advanceClock, now, resetClock } from '../../../src-server/kernel/clock.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { defaultPayments } from '../../../src-server/payments/config.ts'
import { belowMinimumRefusal, COUPON_MESSAGES, codeRemovedAtCheckout } from '../../../src-shared/promotions.ts'
import { seedBundle } from '../../support/bundles.ts'
import { createCreator } from '../../support/creator-courses.ts'
import { createTestDatabase } from '../../support/db.ts'
import { ownedCourse } from '../../support/earnings.ts'
import { callerAs, createUser } from '../../support/factories.ts'
import { shopCaller } from '../../support/shop.ts'

let database: DatabaseHandle
const db = () => database.db

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(() => database.close())
afterEach(() => resetClock())

let seq = 0
const newCode = (prefix: string) => `${prefix}${Date.now().toString(36).toUpperCase()}${seq++}`

const bankOrder = (userId: string) =>
  createFromCart(db(), {
    userId,
    currency: 'USD',
    method: 'bank_transfer',
    referencePrefix: 'SF',
  })

async function orderLines(orderId: string) {
  return db()
    .selectFrom('order_items')
    .select(['course_id', 'unit_price_minor', 'discount_minor'])
    .where('order_id', '=', orderId)
    .execute()
}

describe('codes and bundles (decision 0147)', () => {
  it("a creator's code for all their courses discounts their own bundle, in the cart and in the order alike", async () => {
    const creator = await createCreator(db(), { plan: 'pro' })
    const big = await ownedCourse(db(), creator.id, 6_000, 'Bundled Big')
    const small = await ownedCourse(db(), creator.id, 4_000, 'Bundled Small')
    // $60.00 + $40.00 listed, the bundle at $70.00: shares of $42.00 and $28.00.
    const bundle = await seedBundle(db(), {
      courseIds: [big.id, small.id],
      priceMinor: 7_000,
      ownerId: creator.id,
    })
    const studio = await callerAs(db(), creator)
    const code = newCode('ALLMINE')
    await studio.studioCoupons.create({
      code,
      kind: 'percent',
      percentOff: 10,
      appliesTo: 'creator',
      creatorId: creator.id,
    })

    const buyer = await createUser(db())
    const shop = await callerAs(db(), buyer)
    await shop.cart.add({ kind: 'bundle', bundleId: bundle.id })
    expect(await shop.cart.applyCoupon({ code })).toEqual({ code })
    const cart = await shop.cart.list()
    expect(cart?.items).toEqual([
      expect.objectContaining({
        kind: 'bundle',
        priceMinor: 7_000,
        discountMinor: 700,
      }),
    ])
    expect(cart?.totals[0]).toMatchObject({
      subtotalMinor: 7_000,
      discountMinor: 700,
      totalMinor: 6_300,
    })

    const order = await bankOrder(buyer.id)
    expect(order.totalMinor).toBe(6_300)
    const lines = await orderLines(order.id)
    expect(
      Object.fromEntries(lines.map((line) => [line.course_id, [line.unit_price_minor, line.discount_minor]])),
    ).toEqual({
      [big.id]: [4_200, 420],
      [small.id]: [2_800, 280],
    })
  })

  it("a code for one course takes its part off that course's share of a bundle, not the other courses'", async () => {
    const creator = await createCreator(db(), { plan: 'pro' })
    const other = await createUser(db())
    const mine = await ownedCourse(db(), creator.id, 6_000, 'My Course In A Staff Bundle')
    const theirs = await ownedCourse(db(), other.id, 4_000, 'Another Creator’s Course')
    const bundle = await seedBundle(db(), {
      courseIds: [mine.id, theirs.id],
      priceMinor: 7_000,
    })
    const studio = await callerAs(db(), creator)
    const code = newCode('ONECOURSE')
    await studio.studioCoupons.create({
      code,
      kind: 'percent',
      percentOff: 10,
      appliesTo: 'courses',
      courseIds: [mine.id],
    })

    const buyer = await createUser(db())
    const shop = await callerAs(db(), buyer)
    await shop.cart.add({ kind: 'bundle', bundleId: bundle.id })
    await shop.cart.applyCoupon({ code })
    // 10 % of the $42.00 share of the creator's course; the other creator's $28.00 share is left alone.
    expect((await shop.cart.list())?.totals[0]).toMatchObject({
      discountMinor: 420,
      totalMinor: 6_580,
    })
    const order = await bankOrder(buyer.id)
    expect(order.totalMinor).toBe(6_580)
    const lines = await orderLines(order.id)
    expect(lines.find((line) => line.course_id === mine.id)?.discount_minor).toBe(420)
    expect(lines.find((line) => line.course_id === theirs.id)?.discount_minor).toBe(0)
  })
})

describe('the coupon tables and the refusals', () => {
  it('refuses an end date already past, under the field', async () => {
    const editor = await callerAs(db(), await createUser(db(), { role: 'editor' }))
    const past = {
      code: newCode('PAST'),
      kind: 'percent',
      percentOff: 10,
      appliesTo: 'everything',
    } as const
    await expect(
      editor.admin.coupons.create({
        ...past,
        endsAt: '2020-01-01T00:00:00.000Z',
      }),
    ).rejects.toMatchObject({
      message: COUPON_MESSAGES.endsInPast,
      cause: expect.objectContaining({ field: 'endsAt' }),
    })
    const creator = await createCreator(db(), { plan: 'pro' })
    const studio = await callerAs(db(), creator)
    await expect(
      studio.studioCoupons.create({
        ...past,
        appliesTo: 'creator',
        creatorId: creator.id,
        endsAt: '2020-01-01T00:00:00Z',
      }),
    ).rejects.toThrow(COUPON_MESSAGES.endsInPast)
    expect(await db().selectFrom('coupons').select('id').where('code', '=', past.code).execute()).toEqual([])
  })

  it('says Ended, Used up, Scheduled, Active and Off, with what each covers and asks', async () => {
    const editorUser = await createUser(db(), { role: 'editor' })
    const editor = await callerAs(db(), editorUser)
    const creator = await createCreator(db(), {
      plan: 'pro',
      firstName: 'Tabitha',
    })
    const course = await ownedCourse(db(), creator.id, 5_000, 'Status Table Course')
    const make = async (prefix: string, input: Record<string, unknown>) => {
      const code = newCode(prefix)
      await editor.admin.coupons.create({
        code,
        kind: 'percent',
        percentOff: 10,
        appliesTo: 'everything',
        ...input,
      } as never)
      return code
    }
    const hour = 3_600_000
    const ending = await make('ENDING', {
      endsAt: new Date(now().getTime() + hour).toISOString(),
    })
    const once = await make('ONCE', {
      maxUses: 1,
      appliesTo: 'courses',
      courseIds: [course.id],
    })
    const later = await make('LATER', {
      startsAt: new Date(now().getTime() + 48 * hour).toISOString(),
    })
    const running = await make('RUNNING', {
      appliesTo: 'creator',
      creatorId: creator.id,
      minAmounts: { USD: 10_000 },
      firstPurchaseOnly: true,
    })
    const off = await make('OFF', {})
    const offId = (await editor.admin.coupons.list()).find((coupon) => coupon.code === off)!.id
    await editor.admin.coupons.disable({ couponId: offId })

    // The one use of ONCE is held by an order awaiting payment, as Apply code counts it.
    const buyer = await createUser(db())
    const shop = await callerAs(db(), buyer)
    await shop.cart.add({ kind: 'course', courseId: course.id })
    await shop.cart.applyCoupon({ code: once })
    await bankOrder(buyer.id)
    await advanceClock(2 * 3_600)

    const listed = new Map((await editor.admin.coupons.list()).map((coupon) => [coupon.code, coupon]))
    expect(listed.get(ending)?.status).toBe('ended')
    expect(listed.get(once)).toMatchObject({
      status: 'usedUp',
      courses: [{ id: course.id, title: 'Status Table Course' }],
    })
    expect(listed.get(later)?.status).toBe('scheduled')
    expect(listed.get(running)).toMatchObject({
      status: 'active',
      minAmounts: { USD: 10_000 },
      firstPurchaseOnly: true,
      creatorName: `Tabitha ${creator.lastName}`.trim(),
    })
    expect(listed.get(off)?.status).toBe('off')

    // The studio's own list says the same of the creator's codes.
    const studio = await callerAs(db(), creator)
    const mine = newCode('MINE')
    await studio.studioCoupons.create({
      code: mine,
      kind: 'percent',
      percentOff: 5,
      appliesTo: 'creator',
      creatorId: creator.id,
      maxUses: 1,
    })
    expect((await studio.studioCoupons.list()).coupons.find((coupon) => coupon.code === mine)?.status).toBe('active')
  })

  it('a cart under the minimum is told the minimum', async () => {
    const editor = await callerAs(db(), await createUser(db(), { role: 'editor' }))
    const creator = await createUser(db())
    const course = await ownedCourse(db(), creator.id, 5_000)
    const code = newCode('MIN')
    await editor.admin.coupons.create({
      code,
      kind: 'percent',
      percentOff: 10,
      appliesTo: 'everything',
      minAmounts: { USD: 7_500 },
    } as never)
    const shop = await callerAs(db(), await createUser(db()))
    await shop.cart.add({ kind: 'course', courseId: course.id })
    await expect(shop.cart.applyCoupon({ code })).rejects.toThrow('This code needs a cart of at least $75.00')
  })

  it('a code left under its minimum at checkout leaves the cart, the refusal naming the minimum', async () => {
    const editor = await callerAs(db(), await createUser(db(), { role: 'editor' }))
    const seller = await createUser(db())
    const kept = await ownedCourse(db(), seller.id, 5_000)
    const dropped = await ownedCourse(db(), seller.id, 4_000)
    const code = newCode('MINOUT')
    await editor.admin.coupons.create({
      code,
      kind: 'percent',
      percentOff: 10,
      appliesTo: 'everything',
      minAmounts: { USD: 7_500 },
    } as never)
    const buyer = await createUser(db())
    const shop = await shopCaller(db(), buyer, defaultPayments)
    await shop.cart.add({ kind: 'course', courseId: kept.id })
    await shop.cart.add({ kind: 'course', courseId: dropped.id })
    await shop.cart.applyCoupon({ code })
    const line = (await shop.cart.list())?.items.find((item) => item.courseId === dropped.id)
    // $90.00 down to $50.00: the code stays on the cart (it still covers the course) and says what it needs.
    expect(await shop.cart.remove({ itemId: line!.id })).toMatchObject({ droppedCode: null })
    const minimum = belowMinimumRefusal('$75.00')
    expect((await shop.cart.list())?.coupon).toEqual({ code, applies: false, refusal: minimum, note: null })
    // Checkout refuses the code as any other refusal of it: it leaves the cart, and the buyer is told why.
    await expect(shop.payments.start({ currency: 'USD', method: 'bank_transfer' })).rejects.toThrow(
      codeRemovedAtCheckout(minimum, code),
    )
    expect((await shop.cart.list())?.coupon).toBeNull()
    const started = await shop.payments.start({ currency: 'USD', method: 'bank_transfer', shownTotalMinor: 5_000 })
    expect(started).toMatchObject({ method: 'bank_transfer', totalMinor: 5_000 })
  })
})
