// Stripe Tax's breakdown as invoice tax lines: one per jurisdiction and rate, merged when Stripe lists the same
// rate twice, and none (the invoice then shows one "Tax" line) when the breakdown does not add up to the tax. A
// paid session's event is read back for its breakdown; if Stripe cannot answer, the event goes on unchanged.
import { describe, expect, it } from 'vitest'
import { taxLinesOf } from '../../src-server/flows/checkout-session.ts'
import type { StripeApi } from '../../src-server/payments/stripe.ts'
import { type EventOf, parseStripeEvent } from '../../src-server/payments/stripe-event.ts'
import { withTaxBreakdown } from '../../src-server/payments/tax-breakdown.ts'

const rate = (display_name: string, jurisdiction: string | null, percentage: number | null) => ({
  display_name,
  jurisdiction,
  percentage,
})

describe('taxLinesOf', () => {
  it('names each line by tax, jurisdiction and rate, merging equal ones', () => {
    const lines = taxLinesOf({
      total_details: {
        amount_tax: 600,
        breakdown: {
          taxes: [
            { amount: 300, rate: rate('VAT', 'United Kingdom', 20) },
            { amount: 200, rate: rate('VAT', 'United Kingdom', 20) },
            { amount: 100, rate: rate('Sales Tax', null, 7.25) },
            { amount: 0, rate: rate('Zero', 'Nowhere', 0) },
          ],
        },
      },
    })
    expect(lines).toEqual([
      { name: 'VAT — United Kingdom 20%', amountMinor: 500 },
      { name: 'Sales Tax 7.25%', amountMinor: 100 },
    ])
  })

  it('gives nothing when there is no breakdown or it does not add up to the tax', () => {
    expect(taxLinesOf({ total_details: { amount_tax: 100 } })).toEqual([])
    expect(
      taxLinesOf({
        total_details: { amount_tax: 100, breakdown: { taxes: [{ amount: 90, rate: rate('VAT', 'UK', 20) }] } },
      }),
    ).toEqual([])
  })
})

describe('withTaxBreakdown', () => {
  const event = (amountTax: number) =>
    parseStripeEvent({
      id: 'evt_1',
      type: 'checkout.session.completed',
      created: 1,
      data: { object: { id: 'cs_1', payment_status: 'paid', total_details: { amount_tax: amountTax } } },
    })
  const log = { warn: () => {} }
  const breakdown = { taxes: [{ amount: 50, rate: rate('VAT', 'UK', 20) }] }
  const stripeAnswering = (answer: () => Promise<unknown>) =>
    ({ retrieveCheckoutSession: answer }) as unknown as StripeApi

  it('puts the expanded breakdown into a paid session’s event', async () => {
    const stripe = stripeAnswering(async () => ({ id: 'cs_1', total_details: { amount_tax: 50, breakdown } }))
    const enriched = (await withTaxBreakdown(event(50), stripe, log)) as EventOf<'session'>
    expect(enriched.object.total_details).toEqual({ amount_tax: 50, breakdown })
    expect(enriched.id).toBe('evt_1')
  })

  it('leaves the event as it is when Stripe fails, disagrees, or there is no tax', async () => {
    let calls = 0
    const failing = stripeAnswering(async () => {
      calls++
      throw new Error('Stripe is down')
    })
    expect(await withTaxBreakdown(event(50), failing, log)).toEqual(event(50))
    const other = stripeAnswering(async () => ({ id: 'cs_1', total_details: { amount_tax: 70, breakdown } }))
    expect(await withTaxBreakdown(event(50), other, log)).toEqual(event(50))
    expect(await withTaxBreakdown(event(0), failing, log)).toEqual(event(0))
    expect(calls).toBe(1)
  })
})
