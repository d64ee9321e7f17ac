// What an order line was paid: the one rule invoices, refunds and the shares of fees and Premium revenue read.
import { lineNetMinor } from '../../src-shared/money.ts'

/**
 * What the buyer paid for a line: what it was sold for (lineNetMinor: its price less its stored discount); nothing
 * for a recurring line of a checkout that started a free trial (Stripe charges the subscription's first period when
 * the trial ends, through its own invoice).
 */
export function paidOfLine(line: { unit_price_minor: number; discount_minor: number; free_trial: boolean }): number {
  return line.free_trial ? 0 : lineNetMinor(line)
}
