// `npm run lighthouse`: Lighthouse's accessibility and performance scores (its default mobile preset: a mid-range
// phone on a throttled 4G link) for the home page, the catalogue, a course, pricing and a signed-in cart. Starts the
// built server as the end-to-end tests do (scripts/e2e-server.ts: a fresh PostgreSQL database, seeded) on
// LIGHTHOUSE_PORT (4398), drives the Chromium at CHROME_PATH (/usr/bin/chromium), prints a table and writes the
// reports' scores to lighthouse/scores.json. Exits non-zero when an accessibility score is below 100.
import { mkdirSync, writeFileSync } from 'node:fs'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { SESSION_COOKIE } from '../src-server/auth/session.ts'
import { addCartItem } from '../src-server/cart/repository.ts'
import { HEADLESS_CHROMIUM_ARGS } from '../tests/support/chromium.ts'
import { createSessionToken, createUser } from '../tests/support/factories.ts'
import { type BuiltServer, startBuiltServer } from './built-server.ts'

const port = Number(process.env.LIGHTHOUSE_PORT ?? 4398)
const base = `http://127.0.0.1:${port}`

const PAGES: { name: string; path: string; signedIn?: boolean }[] = [
  { name: 'home', path: '/' },
  { name: 'catalogue', path: '/courses' },
  { name: 'course', path: '/courses/modern-react-typescript' },
  { name: 'pricing', path: '/pricing' },
  { name: 'cart', path: '/cart', signedIn: true },
]

/** A shopper with two lines in the cart; the cookie header that signs in as them. */
async function signedInCookie(server: BuiltServer): Promise<string> {
  const db = server.openDatabase()
  try {
    const user = await createUser(db, { firstName: 'Ada', lastName: 'Lovelace' })
    await addCartItem(db, user.id, { kind: 'course', courseId: 'modern-react-typescript' })
    await addCartItem(db, user.id, { kind: 'plan', planId: 'pro', billingCycle: 'monthly' })
    const { token } = await createSessionToken(db, user.id)
    const cookie = `${SESSION_COOKIE}=${token}`
    // The cart is audited as its owner sees it: make sure the cookie signs in.
    const cart = await fetch(`${base}/trpc/cart.list`, { headers: { Cookie: cookie } }).then((response) =>
      response.json(),
    )
    if ((cart as { result?: { data?: { items?: unknown[] } } }).result?.data?.items?.length !== 2) {
      throw new Error('the signed-in cart did not load: the Lighthouse cart score would be the log-in prompt')
    }
    return cookie
  } finally {
    await db.destroy()
  }
}

const server = await startBuiltServer(port, 'sf_lighthouse')
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  chromeFlags: HEADLESS_CHROMIUM_ARGS,
})
const scores: {
  page: string
  accessibility: number
  performance: number
  /** Largest and first contentful paint, total blocking time (ms, simulated), cumulative layout shift. */
  lcpMs: number
  fcpMs: number
  tbtMs: number
  cls: number
  failing: string[]
}[] = []
try {
  const cookie = await signedInCookie(server)
  for (const entry of PAGES) {
    const result = await lighthouse(`${base}${entry.path}`, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['accessibility', 'performance'],
      extraHeaders: entry.signedIn ? { Cookie: cookie } : undefined,
    })
    if (!result) throw new Error(`no Lighthouse result for ${entry.path}`)
    const { categories, audits } = result.lhr
    const failing = (categories.accessibility?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && audits[ref.id]?.score !== null && (audits[ref.id]?.score ?? 1) < 1)
      .map((ref) => ref.id)
    // A run Lighthouse could not finish (a timeout on a loaded machine, no paint) scores 0: say why.
    if (result.lhr.runtimeError) failing.push(`runtime error ${result.lhr.runtimeError.code}`)
    scores.push({
      page: `${entry.name} (${entry.path})`,
      accessibility: Math.round((categories.accessibility?.score ?? 0) * 100),
      performance: Math.round((categories.performance?.score ?? 0) * 100),
      lcpMs: Math.round(audits['largest-contentful-paint']?.numericValue ?? 0),
      fcpMs: Math.round(audits['first-contentful-paint']?.numericValue ?? 0),
      tbtMs: Math.round(audits['total-blocking-time']?.numericValue ?? 0),
      cls: Number((audits['cumulative-layout-shift']?.numericValue ?? 0).toFixed(3)),
      failing,
    })
  }
} finally {
  chrome.kill()
  server.stop()
}

console.log(`${'page'.padEnd(46)} accessibility  performance (mobile)     LCP     FCP    TBT    CLS`)
for (const row of scores) {
  const ms = (value: number) => `${(value / 1000).toFixed(2)} s`.padStart(8)
  console.log(
    `${row.page.padEnd(46)} ${String(row.accessibility).padStart(13)}  ${String(row.performance).padStart(20)}${ms(row.lcpMs)}${ms(row.fcpMs)}${String(row.tbtMs).padStart(5)} ms${String(row.cls).padStart(7)}${
      row.failing.length ? `   failing: ${row.failing.join(', ')}` : ''
    }`,
  )
}
mkdirSync('lighthouse', { recursive: true })
writeFileSync('lighthouse/scores.json', `${JSON.stringify(scores, null, 2)}\n`)
process.exit(scores.every((row) => row.accessibility === 100) ? 0 : 1)
