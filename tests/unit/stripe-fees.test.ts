// Stripe's fees in the charge's currency (payments/stripe-fees.ts): the processor's fee of a payment and a lost
// dispute's chargeback fee are read off balance transactions, which are in the platform's settlement currency.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { feeInChargeCurrency } from '../../src-server/payments/stripe-fees.ts'

describe('feeInChargeCurrency', () => {
  it('sums fees already in the charge’s currency as they are (any letter case)', () => {
    expect(
      feeInChargeCurrency(
        [
          { fee: 1500, currency: 'usd', exchange_rate: null },
          { fee: 30, currency: 'USD' },
        ],
        'USD',
      ),
    ).toBe(1530)
    expect(feeInChargeCurrency([], 'usd')).toBe(0)
  })

  it('converts a fee settled in another currency back at its rate', () => {
    // A EUR charge settled in USD at 1.10: Stripe's $16.50 fee is €15.00.
    expect(feeInChargeCurrency([{ fee: 1650, currency: 'usd', exchange_rate: 1.1 }], 'eur')).toBe(1500)
  })

  it('rounds once, after summing: two conversions of half a cent do not make two cents', () => {
    expect(
      feeInChargeCurrency(
        [
          { fee: 3, currency: 'usd', exchange_rate: 2 },
          { fee: 3, currency: 'usd', exchange_rate: 2 },
        ],
        'eur',
      ),
    ).toBe(3)
  })

  it('knows no fee when one was settled in another currency without a rate', () => {
    expect(
      feeInChargeCurrency(
        [
          { fee: 1500, currency: 'eur' },
          { fee: 200, currency: 'usd', exchange_rate: null },
        ],
        'eur',
      ),
    ).toBeNull()
  })

  it('is within half a minor unit of the exact sum of the converted fees', () => {
    const transaction = fc.record({
      fee: fc.integer({ min: 0, max: 1_000_000 }),
      settled: fc.boolean(),
      rate: fc.double({ min: 0.01, max: 200, noNaN: true }),
    })
    fc.assert(
      fc.property(fc.array(transaction, { maxLength: 6 }), (rows) => {
        const exact = rows.reduce((sum, row) => sum + (row.settled ? row.fee / row.rate : row.fee), 0)
        const fee = feeInChargeCurrency(
          rows.map((row) =>
            row.settled
              ? { fee: row.fee, currency: 'usd', exchange_rate: row.rate }
              : { fee: row.fee, currency: 'eur', exchange_rate: null },
          ),
          'eur',
        )
        expect(Number.isSafeInteger(fee)).toBe(true)
        expect(Math.abs((fee as number) - exact)).toBeLessThanOrEqual(0.5 + 1e-6)
      }),
    )
  })
})
