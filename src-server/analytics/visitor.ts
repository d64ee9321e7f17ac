// Whom the server counts: not crawlers and monitors (by user agent), not people who asked not to be tracked
// (Do Not Track `DNT: 1`, Global Privacy Control `Sec-GPC: 1`).

const BOT =
  /bot|crawl|spider|slurp|bingpreview|facebookexternalhit|embedly|headless|lighthouse|pingdom|uptime|monitor|curl|wget|python-requests|httpclient|go-http-client|java\/|axios|node-fetch|preview/i

export type Headers = Record<string, string | string[] | undefined>

const header = (headers: Headers, name: string) => {
  const value = headers[name]
  return Array.isArray(value) ? value[0] : value
}

export function isCountableVisitor(headers: Headers): boolean {
  const agent = header(headers, 'user-agent') ?? ''
  if (!agent || BOT.test(agent)) return false
  if (header(headers, 'dnt') === '1' || header(headers, 'sec-gpc') === '1') return false
  return true
}
