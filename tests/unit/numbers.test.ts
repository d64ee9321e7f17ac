// numbers.ts writes en-US numbers and dates without Intl (a phone's first Intl formatter is slow): the same strings.
import { describe, expect, it } from 'vitest'
import { formatMoney } from '../../src-shared/money.ts'
import { groupDigits, longDateUtc } from '../../src-shared/numbers.ts'

describe('numbers without Intl', () => {
  it('group digits as en-US does', () => {
    const values = [0, -0, 1, 7, 12, 999, 1000, 1001, 9999, 10_000, 123_456, 999_999, 1_000_000, 2_147_483_647]
    for (let n = 1; n < 1e15; n = n * 7 + 3) values.push(n, -n)
    values.push(
      Number.MAX_SAFE_INTEGER,
      -Number.MAX_SAFE_INTEGER,
      1.5,
      1234.5678,
      1e21,
      Number.NaN,
      Number.POSITIVE_INFINITY,
    )
    for (const n of values) expect(groupDigits(n), String(n)).toBe(n.toLocaleString('en-US'))
  })

  it('write money as the Intl formatter did', () => {
    const intl = (minor: number, currency: string) =>
      `${minor < 0 ? '-' : ''}${currency === 'GBP' ? '£' : '$'}${(Math.abs(minor) / 100).toLocaleString('en-US', {
        minimumFractionDigits: 2,
        maximumFractionDigits: 2,
      })}`
    const amounts = [0, 1, 5, 9, 10, 99, 100, 101, 999, 1000, 6999, 30000, 99_999, 100_000, 123_456_789, 0.5]
    for (let n = 1; n < 1e13; n = n * 13 + 7) amounts.push(n, -n)
    for (const minor of amounts) {
      for (const currency of ['USD', 'GBP'])
        expect(formatMoney(minor, currency), String(minor)).toBe(intl(minor, currency))
    }
  })

  it('write a UTC day as en-US does', () => {
    const intl = (date: string | Date) =>
      new Date(date).toLocaleDateString('en-US', { timeZone: 'UTC', year: 'numeric', month: 'long', day: 'numeric' })
    const dates: (string | Date)[] = ['2026-12-01T00:00:00Z', '2026-11-30T23:59:59.999Z', '2024-02-29T12:00:00Z']
    for (let t = Date.UTC(1970, 0, 1); t < Date.UTC(2100, 0, 1); t += 86_400_000 * 37 + 3_600_000 * 5)
      dates.push(new Date(t))
    dates.push('0999-06-01T00:00:00Z', '10000-01-01T00:00:00Z', 'not a date', new Date(Number.NaN))
    for (const date of dates) expect(longDateUtc(date), String(date)).toBe(intl(date))
  })
})
