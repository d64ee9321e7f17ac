// What the shop asks Stripe Checkout for (mode, currency, amounts, trial, metadata, return URLs), and what it reads
// back from a session (paid or not, whose order, which payment and subscription): the pure half of
// flows/checkout-session.ts, exactly. The tax lines of Stripe Tax's breakdown are checked here too.
import { describe, expect, it } from 'vitest'
import {
  checkoutSessionParams,
  isSessionPaid,
  orderIdOf,
  paidPaymentOf,
  paymentIntentIdOf,
  subscriptionIdOf,
  taxLinesOf,
} from '../../src-server/flows/checkout-session.ts'
import type { CheckoutLine } from '../../src-server/orders/create.ts'
import type { CheckoutSession } from '../../src-server/payments/stripe-schemas.ts'
import { PAYMENT_MESSAGES } from '../../src-shared/cart.ts'

const course: CheckoutLine = {
  kind: 'course',
  title: 'Bookkeeping Basics',
  detail: 'Ada Lovelace',
  priceMinor: 3900,
  recurringInterval: null,
  planId: null,
  billingCycle: null,
}
const monthlyPlan: CheckoutLine = {
  kind: 'plan',
  title: 'Basic Plan',
  detail: '',
  priceMinor: 999,
  recurringInterval: 'month',
  planId: 'basic',
  billingCycle: 'monthly',
}
const monthlyService: CheckoutLine = {
  kind: 'service_package',
  title: 'Monthly Bookkeeping',
  detail: '',
  priceMinor: 4900,
  recurringInterval: 'month',
  planId: null,
  billingCycle: null,
}
const order = (lines: CheckoutLine[], currency: 'USD' | 'GBP' = 'GBP') => ({
  id: 'order-1',
  reference: 'SF-1-AAAA',
  currency,
  lines,
})

describe('checkoutSessionParams', () => {
  it('one-off lines: payment mode, the order currency in lower case, metadata on the payment intent', () => {
    expect(checkoutSessionParams(order([course]), 'buyer@example.test', 'https://shop.example/')).toEqual({
      mode: 'payment',
      customer_email: 'buyer@example.test',
      client_reference_id: 'order-1',
      metadata: { orderId: 'order-1', reference: 'SF-1-AAAA' },
      success_url: 'https://shop.example/payment-success?session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'https://shop.example/cart',
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency: 'gbp',
            unit_amount: 3900,
            product_data: { name: 'Bookkeeping Basics', description: 'Ada Lovelace' },
          },
        },
      ],
      payment_intent_data: { metadata: { orderId: 'order-1', reference: 'SF-1-AAAA' } },
    })
  })

  it('a recurring line: subscription mode with the trial and the plan in the subscription metadata', () => {
    const params = checkoutSessionParams(order([course, monthlyPlan], 'USD'), 'b@example.test', 'http://localhost:3000')
    expect(params.mode).toBe('subscription')
    expect(params.success_url).toBe('http://localhost:3000/payment-success?session_id={CHECKOUT_SESSION_ID}')
    expect(params.line_items).toEqual([
      {
        quantity: 1,
        price_data: {
          currency: 'usd',
          unit_amount: 3900,
          product_data: { name: 'Bookkeeping Basics', description: 'Ada Lovelace' },
        },
      },
      {
        quantity: 1,
        price_data: {
          currency: 'usd',
          unit_amount: 999,
          product_data: { name: 'Basic Plan' },
          recurring: { interval: 'month' },
        },
      },
    ])
    expect(params.subscription_data).toEqual({
      trial_period_days: 7,
      metadata: { orderId: 'order-1', reference: 'SF-1-AAAA', planId: 'basic', billingCycle: 'monthly' },
    })
    expect(params).not.toHaveProperty('payment_intent_data')
    expect(params).not.toHaveProperty('automatic_tax')
  })

  it('no trial for a buyer who had one; Stripe Tax when asked; a monthly package names no plan', () => {
    const monthlyPackage: CheckoutLine = { ...monthlyPlan, kind: 'service_package', planId: null, billingCycle: null }
    const params = checkoutSessionParams(order([monthlyPackage]), 'b@example.test', 'https://shop.example', {
      trial: false,
      automaticTax: true,
    })
    expect(params.subscription_data).toEqual({ metadata: { orderId: 'order-1', reference: 'SF-1-AAAA' } })
    expect(params.automatic_tax).toEqual({ enabled: true })
  })

  it('the free trial is only for a plan bought by a buyer who never had one', () => {
    const trialOf = (lines: CheckoutLine[], trial?: boolean) =>
      checkoutSessionParams(order(lines), 'b@example.test', '', trial === undefined ? {} : { trial }).subscription_data
    const metadata = { orderId: 'order-1', reference: 'SF-1-AAAA' }
    const planMetadata = { ...metadata, planId: 'basic', billingCycle: 'monthly' }
    // A monthly service alone is paid from its first month, whether or not the buyer had a trial.
    expect(trialOf([monthlyService])).toEqual({ metadata })
    expect(trialOf([monthlyService], true)).toEqual({ metadata })
    expect(trialOf([course, monthlyService], true)).toEqual({ metadata })
    // A plan: the trial when the buyer never had one, none otherwise.
    expect(trialOf([monthlyPlan])).toEqual({ trial_period_days: 7, metadata: planMetadata })
    expect(trialOf([course, monthlyPlan], true)).toEqual({ trial_period_days: 7, metadata: planMetadata })
    expect(trialOf([monthlyPlan], false)).toEqual({ metadata: planMetadata })
  })

  it('refuses a plan and a monthly service in one checkout: they would be one subscription (decision 0136)', () => {
    const params = (lines: CheckoutLine[]) => () => checkoutSessionParams(order(lines), 'b@example.test', '')
    const refused = expect.objectContaining({ kind: 'conflict', message: PAYMENT_MESSAGES.planWithService })
    expect(params([monthlyService, monthlyPlan])).toThrow(refused)
    expect(params([course, monthlyPlan, monthlyService])).toThrow(refused)
    // A one-off service beside a plan is fine.
    expect(params([{ ...monthlyService, recurringInterval: null }, monthlyPlan])().mode).toBe('subscription')
  })

  it('names the plan line in the subscription metadata, not another recurring line before it', () => {
    const metadataOf = (lines: CheckoutLine[]) =>
      checkoutSessionParams(order(lines), 'b@example.test', '').subscription_data?.metadata
    const metadata = { orderId: 'order-1', reference: 'SF-1-AAAA' }
    // A one-off line with a billing cycle (but no plan) ahead of the plan (a monthly service never shares its checkout).
    const cycledCourse: CheckoutLine = { ...course, billingCycle: 'monthly' }
    expect(metadataOf([cycledCourse, monthlyPlan])).toEqual({ ...metadata, planId: 'basic', billingCycle: 'monthly' })
    // A line that is not a plan names no plan, whatever it carries.
    const cycledService: CheckoutLine = { ...monthlyService, billingCycle: 'monthly' }
    const notAPlan: CheckoutLine = { ...course, planId: 'pro', billingCycle: 'monthly' }
    expect(metadataOf([notAPlan, monthlyPlan])).toEqual({ ...metadata, planId: 'basic', billingCycle: 'monthly' })
    expect(metadataOf([{ ...monthlyService, planId: 'pro', billingCycle: 'monthly' }])).toEqual(metadata)
    expect(metadataOf([cycledService])).toEqual(metadata)
    // A plan line missing its plan or its cycle names none either.
    expect(metadataOf([{ ...monthlyPlan, billingCycle: null }])).toEqual(metadata)
    expect(metadataOf([{ ...monthlyPlan, planId: null }])).toEqual(metadata)
  })

  it('refuses monthly and yearly lines in one checkout', () => {
    const annual: CheckoutLine = { ...monthlyPlan, recurringInterval: 'year', billingCycle: 'annual' }
    expect(() => checkoutSessionParams(order([monthlyPlan, annual]), 'b@example.test', '')).toThrow(
      expect.objectContaining({ kind: 'invalid' }),
    )
    // Two lines of the same interval are one subscription.
    expect(checkoutSessionParams(order([monthlyPlan, monthlyPlan]), 'b@example.test', '').mode).toBe('subscription')
  })
})

describe('what a session says', () => {
  it('is paid only when complete and paid (or nothing to pay yet)', () => {
    expect(isSessionPaid({ status: 'complete', payment_status: 'paid' })).toBe(true)
    expect(isSessionPaid({ status: 'complete', payment_status: 'no_payment_required' })).toBe(true)
    expect(isSessionPaid({ status: 'complete', payment_status: 'unpaid' })).toBe(false)
    expect(isSessionPaid({ status: 'open', payment_status: 'paid' })).toBe(false)
    expect(isSessionPaid({ status: 'expired', payment_status: 'no_payment_required' })).toBe(false)
  })

  it('names its order by metadata first, then client_reference_id', () => {
    expect(orderIdOf({ metadata: { orderId: 'a' }, client_reference_id: 'b' })).toBe('a')
    expect(orderIdOf({ metadata: {}, client_reference_id: 'b' })).toBe('b')
    expect(orderIdOf({ metadata: null, client_reference_id: null })).toBeNull()
  })

  it('reads the payment intent and subscription as an id or an expanded object', () => {
    expect(paymentIntentIdOf({ payment_intent: 'pi_1' })).toBe('pi_1')
    expect(paymentIntentIdOf({ payment_intent: { id: 'pi_2' } })).toBe('pi_2')
    expect(paymentIntentIdOf({ payment_intent: null })).toBeNull()
    expect(subscriptionIdOf({ subscription: 'sub_1' })).toBe('sub_1')
    expect(subscriptionIdOf({ subscription: { id: 'sub_2' } })).toBe('sub_2')
    expect(subscriptionIdOf({ subscription: undefined })).toBeNull()
  })

  it('records a paid session as a Stripe payment of what Stripe took, tax included', () => {
    const session: CheckoutSession = {
      id: 'cs_1',
      status: 'complete',
      payment_status: 'paid',
      payment_intent: 'pi_1',
      subscription: { id: 'sub_1' },
      amount_total: 4680,
      total_details: { amount_tax: 780 },
    }
    expect(paidPaymentOf(session)).toEqual({
      source: 'stripe',
      stripeSubscriptionId: 'sub_1',
      stripePaymentIntentId: 'pi_1',
      capturedMinor: 4680,
      taxMinor: 780,
      // No breakdown in the event: the invoice shows the tax as one line.
      taxLines: [],
    })
    expect(paidPaymentOf({ id: 'cs_2', payment_status: 'paid', amount_total: null })).toEqual({
      source: 'stripe',
      stripeSubscriptionId: null,
      stripePaymentIntentId: null,
      capturedMinor: undefined,
      taxMinor: 0,
      taxLines: [],
    })
  })
})

describe('taxLinesOf', () => {
  type Tax = {
    amount: number
    rate: { display_name?: string | null; jurisdiction?: string | null; percentage?: number | null }
  }
  const session = (taxes: Tax[], amountTax?: number | null) => ({
    total_details: { amount_tax: amountTax, breakdown: { taxes } },
  })
  const tax = (
    amount: number,
    display_name: string | null,
    jurisdiction: string | null,
    percentage: number | null,
  ) => ({
    amount,
    rate: { display_name, jurisdiction, percentage },
  })

  it('one line per name and rate, same names summed, nothing for a zero amount', () => {
    const taxes = [
      tax(300, 'Sales Tax', 'New York', 8.875),
      tax(0, 'Exempt', 'Delaware', 0),
      tax(200, 'Sales Tax', 'New York', 8.875),
      tax(150, 'VAT', null, 20),
      tax(40, null, null, null),
      tax(10, '', 'Oregon', 0),
      tax(7, 'City Tax', 'Denver', 4.8123456),
    ]
    expect(taxLinesOf(session(taxes, 707))).toEqual([
      { name: 'Sales Tax — New York 8.875%', amountMinor: 500 },
      { name: 'VAT 20%', amountMinor: 150 },
      { name: 'Tax', amountMinor: 40 },
      { name: 'Tax — Oregon 0%', amountMinor: 10 },
      { name: 'City Tax — Denver 4.8123%', amountMinor: 7 },
    ])
  })

  it('skips a negative amount as it skips a zero one', () => {
    expect(taxLinesOf(session([tax(-100, 'Refund', null, null), tax(250, 'VAT', null, 20)], 250))).toEqual([
      { name: 'VAT 20%', amountMinor: 250 },
    ])
  })

  it('gives nothing when the breakdown does not add up to the tax Stripe charged', () => {
    const taxes = [tax(300, 'Sales Tax', 'New York', 8.875), tax(200, 'VAT', null, 20)]
    expect(taxLinesOf(session(taxes, 500))).toEqual([
      { name: 'Sales Tax — New York 8.875%', amountMinor: 300 },
      { name: 'VAT 20%', amountMinor: 200 },
    ])
    expect(taxLinesOf(session(taxes, 499))).toEqual([])
    expect(taxLinesOf(session(taxes, 501))).toEqual([])
    expect(taxLinesOf(session(taxes, 0))).toEqual([])
    // No amount_tax counts as no tax: a breakdown with tax in it does not add up.
    expect(taxLinesOf(session(taxes))).toEqual([])
    expect(taxLinesOf(session(taxes, null))).toEqual([])
  })

  it('gives nothing when there is no breakdown or no tax', () => {
    expect(taxLinesOf({})).toEqual([])
    expect(taxLinesOf({ total_details: null })).toEqual([])
    expect(taxLinesOf({ total_details: { amount_tax: 0 } })).toEqual([])
    expect(taxLinesOf({ total_details: { amount_tax: 780, breakdown: null } })).toEqual([])
    expect(taxLinesOf(session([tax(0, 'VAT', null, 20)]))).toEqual([])
    expect(taxLinesOf(session([], 0))).toEqual([])
  })
})
