// A course's prices (issue 30, decision 0069): free, or an amount in USD and/or GBP. price_usd_minor / price_gbp_minor
// are what a buyer pays; price_minor and currency are the list price the catalogue filters and sorts by, written from
// the two by priceColumns (never set on their own by the studio, the staff editor or a review). A row written before
// the split (the seed, the generator) has neither column set: it is sold at its list price in its currency. The
// server prices cart lines with priceFor from the course row; the client only shows these.
import { type Currency, formatMoney } from './money.ts'

/** Minor units per currency; null: the course is not sold in that currency. Both null: free. */
export interface CoursePrices {
  USD: number | null
  GBP: number | null
}

export const COURSE_PRICE_MESSAGES = {
  /** A course with a price in neither currency is free; one with a price in one is sold in that one. */
  missingCurrency: (currency: Currency, sold: Currency) =>
    `This course is not sold in ${currency}: it is sold in ${sold}`,
} as const

/** "$49.99 or £39.99", "$49.99", "Free". */
export function coursePricesLabel(prices: CoursePrices): string {
  const parts = (['USD', 'GBP'] as const).flatMap((currency) => {
    const amount = prices[currency]
    return amount === null ? [] : [formatMoney(amount, currency)]
  })
  return parts.length === 0 ? 'Free' : parts.join(' or ')
}

/** The currencies a course is sold in (none: free). */
export const soldIn = (prices: CoursePrices): Currency[] =>
  (['USD', 'GBP'] as const).filter((currency) => prices[currency] !== null)

export interface CoursePriceRow {
  price_minor: number
  currency: string
  price_usd_minor: number | null
  price_gbp_minor: number | null
}

const asCurrency = (value: string | null | undefined): Currency => (value === 'GBP' ? 'GBP' : 'USD')

/** The course's prices by currency. */
export function coursePrices(row: CoursePriceRow): CoursePrices {
  if (row.price_usd_minor === null && row.price_gbp_minor === null) {
    if (row.price_minor <= 0) return { USD: null, GBP: null }
    return asCurrency(row.currency) === 'GBP'
      ? { USD: null, GBP: row.price_minor }
      : { USD: row.price_minor, GBP: null }
  }
  return { USD: row.price_usd_minor, GBP: row.price_gbp_minor }
}

/**
 * What a buyer who chose `wanted` pays: the course's price in that currency when it has one, else its price in the
 * currency it is sold in (the list price; a free course: 0 in its list currency).
 */
export function priceFor(row: CoursePriceRow, wanted?: string | null): { priceMinor: number; currency: Currency } {
  const prices = coursePrices(row)
  if (wanted === 'USD' || wanted === 'GBP') {
    const amount = prices[wanted]
    if (amount !== null) return { priceMinor: amount, currency: wanted }
  }
  return listPrice(prices, asCurrency(row.currency))
}

/** The list price: in `preferred` while it has a price there, else in the other; free: 0 in `preferred`. */
export function listPrice(prices: CoursePrices, preferred: Currency): { priceMinor: number; currency: Currency } {
  const other: Currency = preferred === 'USD' ? 'GBP' : 'USD'
  const first = prices[preferred]
  if (first !== null) return { priceMinor: first, currency: preferred }
  const second = prices[other]
  if (second !== null) return { priceMinor: second, currency: other }
  return { priceMinor: 0, currency: preferred }
}

/** The stored columns for these prices; `currentCurrency`: the list currency the course has now. */
export function priceColumns(prices: CoursePrices, currentCurrency: string) {
  const list = listPrice(prices, asCurrency(currentCurrency))
  return {
    price_minor: list.priceMinor,
    currency: list.currency,
    price_usd_minor: prices.USD,
    price_gbp_minor: prices.GBP,
  }
}

/** Zero or less is "not sold in that currency". */
export const normalPrices = (prices: CoursePrices): CoursePrices => ({
  USD: prices.USD !== null && prices.USD > 0 ? prices.USD : null,
  GBP: prices.GBP !== null && prices.GBP > 0 ? prices.GBP : null,
})

export const samePrices = (a: CoursePrices, b: CoursePrices) => a.USD === b.USD && a.GBP === b.GBP
