// PayPal.me: the configured link with the amount to two decimals and the currency, e.g. .../skillforge/12.34USD.
export function paypalMeLink(baseUrl: string, totalMinor: number, currency: string): string {
  const amount = (totalMinor / 100).toFixed(2)
  return `${baseUrl.replace(/\/+$/, '')}/${amount}${currency}`
}
