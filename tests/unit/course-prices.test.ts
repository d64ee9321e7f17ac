// A course's prices by currency (decision 0069): what a buyer pays in the currency they chose, the list price the
// catalogue sorts by, an older row read from its list price, and the stored columns.
import { describe, expect, it } from 'vitest'
import {
  coursePrices,
  coursePricesLabel,
  listPrice,
  normalPrices,
  priceColumns,
  priceFor,
} from '../../src-shared/course-prices.ts'

const both = { price_minor: 4999, currency: 'USD', price_usd_minor: 4999, price_gbp_minor: 3999 }

describe('course prices', () => {
  it('charges the chosen currency’s price when the course has one, else the list price', () => {
    expect(priceFor(both, 'GBP')).toEqual({ priceMinor: 3999, currency: 'GBP' })
    expect(priceFor(both, 'USD')).toEqual({ priceMinor: 4999, currency: 'USD' })
    expect(priceFor(both, null)).toEqual({ priceMinor: 4999, currency: 'USD' })
    const usdOnly = { ...both, price_gbp_minor: null }
    expect(priceFor(usdOnly, 'GBP')).toEqual({ priceMinor: 4999, currency: 'USD' })
    expect(priceFor({ ...both, price_minor: 0, price_usd_minor: null, price_gbp_minor: null }, 'GBP')).toEqual({
      priceMinor: 0,
      currency: 'USD',
    })
  })

  it('reads an older row (no per-currency columns) as sold at its list price in its currency', () => {
    const legacy = { price_minor: 900, currency: 'GBP', price_usd_minor: null, price_gbp_minor: null }
    expect(coursePrices(legacy)).toEqual({ USD: null, GBP: 900 })
    expect(priceFor(legacy, 'USD')).toEqual({ priceMinor: 900, currency: 'GBP' })
  })

  it('keeps the list currency while it has a price, else moves to the other; free is 0', () => {
    expect(listPrice({ USD: 1000, GBP: 800 }, 'GBP')).toEqual({ priceMinor: 800, currency: 'GBP' })
    expect(listPrice({ USD: 1000, GBP: null }, 'GBP')).toEqual({ priceMinor: 1000, currency: 'USD' })
    expect(priceColumns({ USD: null, GBP: null }, 'GBP')).toEqual({
      price_minor: 0,
      currency: 'GBP',
      price_usd_minor: null,
      price_gbp_minor: null,
    })
    expect(normalPrices({ USD: 0, GBP: 1 })).toEqual({ USD: null, GBP: 1 })
  })

  it('reads them as a buyer does', () => {
    expect(coursePricesLabel({ USD: 4999, GBP: 3999 })).toBe('$49.99 or £39.99')
    expect(coursePricesLabel({ USD: null, GBP: 3999 })).toBe('£39.99')
    expect(coursePricesLabel({ USD: null, GBP: null })).toBe('Free')
  })
})
