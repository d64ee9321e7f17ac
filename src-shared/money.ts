// Money is integer minor units (cents, pence) plus an ISO currency code. Formatting lives only here.
import { groupDigits, headlineCount } from './numbers.ts'

export const CURRENCIES = ['USD', 'GBP'] as const
export type Currency = (typeof CURRENCIES)[number]

export interface Money {
  amountMinor: number
  currency: Currency
}

/** Spec §9: £ for GBP, otherwise $; always two decimals. */
export function currencySymbol(currency: string): string {
  return currency === 'GBP' ? '£' : '$'
}

export function formatMoney(amountMinor: number, currency: string = 'USD'): string {
  const sign = amountMinor < 0 ? '-' : ''
  const minor = Math.abs(amountMinor)
  // Whole minor units are written without Intl (numbers.ts: a page's first Intl formatter is slow on a phone).
  const digits = Number.isSafeInteger(minor)
    ? `${groupDigits(Math.floor(minor / 100))}.${String(minor % 100).padStart(2, '0')}`
    : (minor / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })
  return `${sign}${currencySymbol(currency)}${digits}`
}

/** An amount as a headline shows it, in whole units rounded down: "$8,500", "$125M+", "£12.5K+". */
export function headlineMoney(amountMinor: number, currency: string): string {
  return `${currencySymbol(currency)}${headlineCount(Math.floor(amountMinor / 100))}`
}

/**
 * What an order line was sold for: its unit price less the discount stored on it at checkout (a coupon's or a
 * bundle's share, allocated once). Refunds, invoices, fees, shares and reports all start from this one figure.
 */
export function lineNetMinor(line: { unit_price_minor: number; discount_minor?: number | null }): number {
  return line.unit_price_minor - (line.discount_minor ?? 0)
}

/** Parses a decimal string such as "99.99" into minor units without floating-point drift. */
export function toMinorUnits(decimal: string | number): number {
  const text = typeof decimal === 'number' ? decimal.toFixed(2) : decimal.trim()
  const match = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(text)
  if (!match) throw new RangeError(`Not a money amount: ${text}`)
  const [, sign, whole, fraction = ''] = match
  const minor = Number(whole) * 100 + Number(fraction.padEnd(2, '0'))
  return sign === '-' ? -minor : minor
}

/**
 * Splits `total` minor units in proportion to `weights` by largest remainder: every part is a whole number of
 * minor units, the parts sum to `total` exactly, and the leftover units go to the largest fractional parts (ties to
 * the earlier weight). Each split (discounts, fees, shares) is allocated once with this and stored.
 */
export function allocate(total: number, weights: readonly number[]): number[] {
  if (!Number.isSafeInteger(total)) throw new RangeError(`Not a whole amount: ${total}`)
  if (weights.some((weight) => !(weight >= 0) || !Number.isFinite(weight))) throw new RangeError('Weights must be ≥ 0')
  const sum = weights.reduce((a, b) => a + b, 0)
  if (weights.length === 0) return []
  if (sum === 0) return weights.map((_, index) => (index === 0 ? total : 0))
  const sign = total < 0 ? -1 : 1
  const whole = Math.abs(total)
  const exact = weights.map((weight) => (whole * weight) / sum)
  const parts = exact.map(Math.floor)
  let left = whole - parts.reduce((a, b) => a + b, 0)
  const order = exact.map((value, index) => ({ index, fraction: value - Math.floor(value) }))
  order.sort((a, b) => b.fraction - a.fraction || a.index - b.index)
  for (const { index } of order) {
    if (left <= 0) break
    parts[index]! += 1
    left -= 1
  }
  return parts.map((part) => part * sign)
}
