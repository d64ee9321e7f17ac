import { describe, expect, it } from 'vitest'
import { type CartLine, totalsByCurrency } from '../../src-server/cart/lines.ts'
import { checkoutSessionParams, isSessionPaid } from '../../src-server/flows/checkout-session.ts'
import { orderReference } from '../../src-server/orders/create.ts'
import { paypalMeLink } from '../../src-server/payments/paypal.ts'

const line = (overrides: Partial<CartLine>): CartLine => ({
  id: 'x',
  kind: 'course',
  key: 'course:x',
  title: 'T',
  detail: '',
  image: '',
  priceMinor: 1000,
  currency: 'USD',
  recurringInterval: null,
  billingCycle: null,
  courseId: 'x',
  serviceId: null,
  packageId: null,
  planId: null,
  addedAt: '',
  ...overrides,
})

describe('payments helpers', () => {
  it('totals per currency, USD first, tax 0', () => {
    const totals = totalsByCurrency([
      line({ priceMinor: 30_000, currency: 'GBP' }),
      line({ priceMinor: 6999 }),
      line({ priceMinor: 1999 }),
    ])
    expect(totals).toEqual([
      { currency: 'USD', itemCount: 2, subtotalMinor: 8998, taxMinor: 0, totalMinor: 8998 },
      { currency: 'GBP', itemCount: 1, subtotalMinor: 30_000, taxMinor: 0, totalMinor: 30_000 },
    ])
    expect(totalsByCurrency([])).toEqual([])
  })

  it('builds the PayPal.me link with two decimals', () => {
    expect(paypalMeLink('https://paypal.me/shop/', 4999, 'USD')).toBe('https://paypal.me/shop/49.99USD')
    expect(paypalMeLink('https://paypal.me/shop', 30_000, 'GBP')).toBe('https://paypal.me/shop/300.00GBP')
  })

  it('makes references from the prefix and the time', () => {
    const at = new Date('2026-11-22T10:00:00Z')
    expect(orderReference('SF', at)).toMatch(new RegExp(`^SF-${at.getTime().toString(36).toUpperCase()}-[0-9A-F]{4}$`))
    expect(orderReference('SF', at)).not.toBe(orderReference('SF', at))
  })

  it('chooses the Checkout mode from the items and refuses mixed billing intervals', () => {
    const order = { id: 'o1', reference: 'SF-1', currency: 'USD' as const, method: 'card' as const, totalMinor: 0 }
    const oneOff = checkoutSessionParams({ ...order, lines: [line({})] }, 'a@b.c', 'http://shop.test/')
    expect(oneOff.mode).toBe('payment')
    expect(oneOff.success_url).toBe('http://shop.test/payment-success?session_id={CHECKOUT_SESSION_ID}')
    const plan = line({ kind: 'plan', recurringInterval: 'year' })
    const sub = checkoutSessionParams({ ...order, lines: [line({}), plan] }, 'a@b.c', 'http://shop.test')
    expect(sub.mode).toBe('subscription')
    expect(sub.subscription_data?.trial_period_days).toBe(7)
    expect(sub.line_items?.[1]?.price_data?.recurring).toEqual({ interval: 'year' })
    // One free trial per user: a buyer who has had a subscription starts paid.
    const paid = checkoutSessionParams({ ...order, lines: [plan] }, 'a@b.c', 'http://shop.test', { trial: false })
    expect(paid.subscription_data?.trial_period_days).toBeUndefined()
    const monthly = line({ kind: 'service_package', recurringInterval: 'month' })
    // The free trial is the membership's: a monthly service alone is charged from its first month.
    const service = checkoutSessionParams({ ...order, lines: [monthly] }, 'a@b.c', 'http://shop.test')
    expect(service.mode).toBe('subscription')
    expect(service.subscription_data?.trial_period_days).toBeUndefined()
    expect(() => checkoutSessionParams({ ...order, lines: [plan, monthly] }, 'a@b.c', 'http://shop.test')).toThrow(
      'Monthly and yearly subscriptions must be checked out separately',
    )
  })

  it('treats only complete sessions that are paid (or in a free trial) as paid', () => {
    expect(isSessionPaid({ status: 'complete', payment_status: 'paid' })).toBe(true)
    expect(isSessionPaid({ status: 'complete', payment_status: 'no_payment_required' })).toBe(true)
    expect(isSessionPaid({ status: 'complete', payment_status: 'unpaid' })).toBe(false)
    expect(isSessionPaid({ status: 'open', payment_status: 'paid' })).toBe(false)
  })
})
