// Stripe's fees, read off balance transactions, in the currency the buyer paid in. A balance transaction is in the
// platform's settlement currency; when that is not the charge's, Stripe gives its exchange_rate (the charge's amount
// times the rate is the settled amount), so the fee is converted back by dividing by it.

export interface BalanceFee {
  fee: number
  currency: string
  exchange_rate?: number | null
}

/**
 * The fees of these balance transactions in the charge's currency, summed before rounding once (no minor unit gained
 * or lost per transaction). Null when one was settled in another currency without a rate: its fee cannot be known in
 * the charge's currency, so none is charged to anyone.
 */
export function feeInChargeCurrency(transactions: readonly BalanceFee[], chargeCurrency: string): number | null {
  let total = 0
  for (const transaction of transactions) {
    const converted = transaction.currency.toLowerCase() !== chargeCurrency.toLowerCase()
    if (converted && !transaction.exchange_rate) return null
    total += converted ? transaction.fee / (transaction.exchange_rate as number) : transaction.fee
  }
  return Math.round(total)
}
