// `npm run bench:hydration` (after `npm run build`): time to interactive on a mid-range phone (issue 27). Starts the
// built server as `npm run lighthouse` does (scripts/built-server.ts: a fresh PostgreSQL database, seeded) on
// HYDRATION_PORT (4399), signs in a learner who holds a course and has a course and a plan in the cart, then opens
// each page RUNS times, each in a fresh browser context (empty cache, no cookies but the learner's where signed in),
// in the headless Chromium at CHROMIUM_PATH (/usr/bin/chromium) with the CPU slowed 4× and DevTools' "Fast 3G"
// network. Measured: from navigation start to the moment the app marks itself hydrated
// (`document.documentElement.dataset.hydrated = 'true'`, set in a useEffect of src-client/routes/__root.tsx), read by
// a MutationObserver the page is given before any of its own scripts. Prints each page's runs, median, first
// contentful paint and JavaScript bytes on the wire, and PASS/FAIL against BOUND_MS; exits non-zero when a median is
// over it. Pages the server leaves to the client (the lesson) are measured the same way.
import { type Browser, type CDPSession, chromium } from '@playwright/test'
import { grant } from '../src-server/access/ledger.ts'
import { SESSION_COOKIE } from '../src-server/auth/session.ts'
import { addCartItem } from '../src-server/cart/repository.ts'
import { listLessonIds } from '../src-server/catalog/repository-lessons.ts'
import { HEADLESS_CHROMIUM_ARGS } from '../tests/support/chromium.ts'
import { createSessionToken, createUser } from '../tests/support/factories.ts'
import { type BuiltServer, startBuiltServer } from './built-server.ts'

/** Issue 27: each page is interactive within this of navigation, median of RUNS. */
const BOUND_MS = 2500
const RUNS = Number(process.env.HYDRATION_RUNS ?? 5)
const port = Number(process.env.HYDRATION_PORT ?? 4399)
/** Only the pages whose name starts with this (e.g. HYDRATION_ONLY=course). */
const ONLY = process.env.HYDRATION_ONLY
/** HYDRATION_TRACE=1 prints each page's first run as a waterfall: every request's start and end, ms after navigation. */
const TRACE = process.env.HYDRATION_TRACE === '1'

/**
 * Chrome DevTools' "Fast 3G" preset, as its network panel applies it (devtools-frontend,
 * front_end/core/sdk/NetworkManager.ts, `Fast3GConditions`): download 1.6 Mb/s × 0.9 = 1.44 Mb/s (180,000 B/s),
 * upload 750 kb/s × 0.9 = 675 kb/s (84,375 B/s), latency 150 ms × 3.75 = 562.5 ms. The factors are Lighthouse's
 * DEVTOOLS_THROUGHPUT_ADJUSTMENT_FACTOR and DEVTOOLS_RTT_ADJUSTMENT_FACTOR (node_modules/@paulirish/trace_engine/
 * models/trace/lantern/simulation/Constants.js): the same link as Lighthouse's mobileSlow4G (150 ms RTT, 1.6 Mb/s),
 * applied per request by the browser rather than simulated. With the 4× CPU slowdown this is Lighthouse's mobile
 * preset run in real time.
 */
const FAST_3G = {
  offline: false,
  latency: 150 * 3.75,
  downloadThroughput: ((1.6 * 1000 * 1000) / 8) * 0.9,
  uploadThroughput: ((750 * 1000) / 8) * 0.9,
}
const CPU_SLOWDOWN = 4
/** Lighthouse's mobile screen (a Moto G Power, core/config/constants.js), so the page loads the phone's images. */
const PHONE = { viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true }

const OWNED_COURSE = 'javascript-fundamentals'

interface Learner {
  /** The session cookie's value. */
  token: string
  lessonId: string
}

/** A learner who holds OWNED_COURSE (a staff grant) and has a course and a plan in the cart; their session cookie. */
async function learner(server: BuiltServer): Promise<Learner> {
  const db = server.openDatabase()
  try {
    const user = await createUser(db, { firstName: 'Ada', lastName: 'Lovelace' })
    await grant(db, { userId: user.id, right: { kind: 'course', courseId: OWNED_COURSE }, source: { kind: 'staff' } })
    await addCartItem(db, user.id, { kind: 'course', courseId: 'modern-react-typescript' })
    await addCartItem(db, user.id, { kind: 'plan', planId: 'pro', billingCycle: 'monthly' })
    const [lessonId] = await listLessonIds(db, OWNED_COURSE)
    if (!lessonId) throw new Error(`${OWNED_COURSE} has no lessons`)
    const { token } = await createSessionToken(db, user.id)
    const cookie = `${SESSION_COOKIE}=${token}`
    const cart = await fetch(`${server.base}/trpc/cart.list`, { headers: { Cookie: cookie } }).then((response) =>
      response.json(),
    )
    if ((cart as { result?: { data?: { items?: unknown[] } } }).result?.data?.items?.length !== 2) {
      throw new Error('the signed-in cart did not load: the cart would be measured as the log-in prompt')
    }
    return { token, lessonId }
  } finally {
    await db.destroy()
  }
}

/**
 * Runs in the page before its own scripts: records when the app marks itself hydrated (performance.now(), from
 * navigation start). A string, not a function: tsx would wrap a function's named locals in a helper the page lacks.
 */
const WATCH_HYDRATION = `window.__hydration = new Promise(function (resolve) {
  new MutationObserver(function (_, observer) {
    if (document.documentElement.dataset.hydrated === 'true') {
      observer.disconnect()
      resolve(performance.now())
    }
  }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-hydrated'] })
})`

interface Run {
  hydratedMs: number
  /** First contentful paint; NaN when nothing had painted by hydration (a page the browser renders itself). */
  fcpMs: number
  /** JavaScript responses' bytes on the wire (compressed, with headers) until hydration. */
  jsBytes: number
}

/** The requests of a run, for HYDRATION_TRACE: url, start and end (ms after the first request), bytes on the wire. */
function traceRequests(cdp: CDPSession) {
  const requests = new Map<string, { url: string; start: number; end?: number; bytes?: number }>()
  let origin: number | undefined
  cdp.on('Network.requestWillBeSent', (event) => {
    origin ??= event.timestamp
    requests.set(event.requestId, { url: event.request.url, start: (event.timestamp - origin) * 1000 })
  })
  cdp.on('Network.loadingFinished', (event) => {
    const request = requests.get(event.requestId)
    if (request && origin !== undefined) {
      request.end = (event.timestamp - origin) * 1000
      request.bytes = event.encodedDataLength
    }
  })
  return () =>
    [...requests.values()]
      .map(
        (request) =>
          `  ${request.start.toFixed(0).padStart(6)} → ${(request.end?.toFixed(0) ?? '…').padStart(6)} ms ${((request.bytes ?? 0) / 1024).toFixed(1).padStart(6)} kB  ${request.url.replace(/^https?:\/\/[^/]+/, '')}`,
      )
      .join('\n')
}

function countScriptBytes(cdp: CDPSession) {
  const scripts = new Set<string>()
  let bytes = 0
  cdp.on('Network.responseReceived', (event) => {
    if (event.type === 'Script') scripts.add(event.requestId)
  })
  cdp.on('Network.loadingFinished', (event) => {
    if (scripts.has(event.requestId)) bytes += event.encodedDataLength
  })
  return () => bytes
}

async function measure(browser: Browser, url: string, token?: string, trace = false): Promise<Run> {
  const context = await browser.newContext(PHONE)
  try {
    if (token) {
      await context.addCookies([{ name: SESSION_COOKIE, value: token, url, httpOnly: true, sameSite: 'Lax' }])
    }
    await context.addInitScript(WATCH_HYDRATION)
    const page = await context.newPage()
    const cdp = await context.newCDPSession(page)
    await cdp.send('Network.enable')
    await cdp.send('Network.emulateNetworkConditions', FAST_3G)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN })
    const scriptBytes = countScriptBytes(cdp)
    const waterfall = trace ? traceRequests(cdp) : undefined
    await page.goto(url, { waitUntil: 'commit', timeout: 60_000 })
    // Awaited in the page, not polled: a polling loop would run on the slowed renderer while it hydrates.
    const hydratedMs = await Promise.race([
      page.evaluate(() => (window as unknown as { __hydration: Promise<number> }).__hydration),
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error(`${url} did not hydrate within 60 s`)), 60_000).unref(),
      ),
    ])
    const jsBytes = scriptBytes()
    if (waterfall) console.log(`${url} (hydrated at ${hydratedMs.toFixed(0)} ms)\n${waterfall()}`)
    const fcpMs = await page.evaluate(
      () => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
    )
    return { hydratedMs, fcpMs, jsBytes }
  } finally {
    await context.close()
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2
}

const server = await startBuiltServer(port, 'sf_hydration')
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: HEADLESS_CHROMIUM_ARGS,
})
const rows: { page: string; runs: Run[] }[] = []
try {
  const { token, lessonId } = await learner(server)
  const pages: { name: string; path: string; signedIn?: boolean }[] = [
    { name: 'home', path: '/' },
    { name: 'catalogue', path: '/courses' },
    { name: 'course', path: '/courses/modern-react-typescript' },
    { name: 'log in', path: '/login' },
    { name: 'sign up', path: '/signup' },
    { name: 'cart, signed in', path: '/cart', signedIn: true },
    { name: 'lesson, signed in', path: `/learn/${OWNED_COURSE}/…`, signedIn: true },
  ]
  for (const entry of pages.filter((page) => !ONLY || page.name.startsWith(ONLY))) {
    const url = `${server.base}${entry.path.replace('…', lessonId)}`
    // One unmeasured request first, so the server's first render of the page (cold code, cold caches) is not timed.
    await fetch(url, { headers: entry.signedIn ? { Cookie: `${SESSION_COOKIE}=${token}` } : {} })
    const runs: Run[] = []
    for (let run = 0; run < RUNS; run++) {
      runs.push(await measure(browser, url, entry.signedIn ? token : undefined, TRACE && run === 0))
    }
    rows.push({ page: `${entry.name} (${entry.path})`, runs })
  }
} finally {
  await browser.close()
  server.stop()
}

const seconds = (ms: number) => (Number.isNaN(ms) ? '—' : (ms / 1000).toFixed(2)).padStart(6)
console.log(
  `Hydrated after navigation, s (${CPU_SLOWDOWN}× CPU slowdown, DevTools "Fast 3G", ${RUNS} fresh contexts; bound ${BOUND_MS / 1000} s)`,
)
console.log(`${'page'.padEnd(48)} ${'runs'.padEnd(RUNS * 7)} median   FCP  JS kB`)
let failed = false
for (const row of rows) {
  const hydrated = median(row.runs.map((run) => run.hydratedMs))
  const over = hydrated > BOUND_MS
  failed ||= over
  console.log(
    `${row.page.padEnd(48)} ${row.runs.map((run) => seconds(run.hydratedMs)).join(' ')} ${seconds(hydrated)} ${seconds(
      median(row.runs.map((run) => run.fcpMs)),
    )} ${(median(row.runs.map((run) => run.jsBytes)) / 1024).toFixed(1).padStart(6)}  ${over ? 'FAIL' : 'PASS'}`,
  )
}
process.exit(failed ? 1 : 0)
