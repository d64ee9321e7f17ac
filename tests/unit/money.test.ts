import { describe, expect, it } from 'vitest'
import { formatMoney, headlineMoney, lineNetMinor, toMinorUnits } from '../../src-shared/money.ts'

describe('formatMoney', () => {
  it('uses £ for GBP and $ for everything else, with two decimals', () => {
    expect(formatMoney(30000, 'GBP')).toBe('£300.00')
    expect(formatMoney(6999, 'USD')).toBe('$69.99')
    expect(formatMoney(5, 'EUR')).toBe('$0.05')
    expect(formatMoney(0)).toBe('$0.00')
  })
  it('groups thousands and keeps the sign', () => {
    expect(formatMoney(199900, 'USD')).toBe('$1,999.00')
    expect(formatMoney(-1050, 'GBP')).toBe('-£10.50')
  })
})

describe('toMinorUnits', () => {
  it('parses decimals without floating-point drift', () => {
    expect(toMinorUnits('99.99')).toBe(9999)
    expect(toMinorUnits('0.1')).toBe(10)
    expect(toMinorUnits('1200')).toBe(120000)
    expect(toMinorUnits(19.99)).toBe(1999)
  })
  it('refuses text that is not an amount', () => {
    expect(() => toMinorUnits('abc')).toThrow(RangeError)
    expect(() => toMinorUnits('1.999')).toThrow(RangeError)
    expect(() => toMinorUnits('')).toThrow(RangeError)
  })
})

describe('lineNetMinor', () => {
  it('is what a line sold for: its unit price less its stored discount (none when the line has no discount)', () => {
    expect(lineNetMinor({ unit_price_minor: 4999, discount_minor: 1250 })).toBe(3749)
    expect(lineNetMinor({ unit_price_minor: 4999, discount_minor: 0 })).toBe(4999)
    expect(lineNetMinor({ unit_price_minor: 4999 })).toBe(4999)
  })
})

describe('allocate (largest remainder)', () => {
  it('splits into whole minor units that always sum to the total, the leftover to the largest remainders', async () => {
    const { allocate } = await import('../../src-shared/money.ts')
    expect(allocate(100, [1, 1, 1])).toEqual([34, 33, 33])
    expect(allocate(4999, [500, 9500])).toEqual([250, 4749])
    expect(allocate(-100, [1, 1, 1])).toEqual([-34, -33, -33])
    expect(allocate(7, [0, 0])).toEqual([7, 0])
    const fc = (await import('fast-check')).default
    fc.assert(
      fc.property(
        fc.integer({ min: -1_000_000_000, max: 1_000_000_000 }),
        fc.array(fc.integer({ min: 0, max: 1_000_000 }), { minLength: 1, maxLength: 12 }),
        (total, weights) => {
          const parts = allocate(total, weights)
          expect(parts.reduce((a, b) => a + b, 0)).toBe(total)
          const sum = weights.reduce((a, b) => a + b, 0)
          parts.forEach((part, index) => {
            expect(Number.isInteger(part)).toBe(true)
            // Each part is within one unit of its exact share.
            if (sum > 0) expect(Math.abs(part - (total * weights[index]!) / sum)).toBeLessThan(1)
          })
        },
      ),
    )
  })
})

describe('headlineMoney', () => {
  it('writes whole units rounded down, compact from ten thousand, never more than the amount', () => {
    expect(headlineMoney(99, 'USD')).toBe('$0')
    expect(headlineMoney(850_099, 'USD')).toBe('$8,500')
    expect(headlineMoney(12_549_999, 'GBP')).toBe('£125.4K+')
    expect(headlineMoney(12_500_000_000, 'USD')).toBe('$125M+')
  })
})
