import { describe, expect, it } from 'vitest'
import { formatMoney, toMinorUnits } from '../../src-shared/money.ts'

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
