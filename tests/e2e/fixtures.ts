// Playwright fixtures: direct access to the end-to-end database, and signing in by creating a user and a
// session row then setting the cookie (the log-in form itself is tested only in its own tests); every test also
// records the secrets it used, for the log audit at the end of the run.
import { createHash } from 'node:crypto'
import { type BrowserContext, test as base, type Page, type TestInfo } from '@playwright/test'
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import type { Database } from '../../db/types.ts'
import { SESSION_COOKIE } from '../../src-server/auth/session.ts'
import { SIGNUP_BROWSER_COOKIE } from '../../src-server/auth/signup-browser.ts'
import * as clock from '../../src-server/kernel/clock.ts'
import { VISITOR_CHAT_COOKIE } from '../../src-server/live-chat/visitor-token.ts'
import type { Role } from '../../src-shared/roles.ts'
import { createSessionToken, createUser, type TestUser } from '../support/factories.ts'
import { recordSecrets, watchForSecrets } from './secrets.ts'

export const E2E_DATABASE_URL = process.env.E2E_DATABASE_URL as string
/** Cookies whose value opens something: never to be seen in the server's log. */
const SECRET_COOKIES = [SESSION_COOKIE, VISITOR_CHAT_COOKIE, SIGNUP_BROWSER_COOKIE]

interface Fixtures {
  /** The client address this test's browsers and requests present (clientAddressOf). */
  clientAddress: string
  db: Kysely<Database>
  login: (options?: { role?: Role; email?: string; firstName?: string; lastName?: string }) => Promise<TestUser>
  /** Automatic: records the secrets the test used, for the log audit at the end of the run (secrets.ts). */
  secretsUsed: undefined
}

/**
 * The client address a test's browser and requests present (X-Forwarded-For; the e2e server trusts loopback as its
 * proxy): one per test and per attempt, so the limits per address (resends, contact messages, sign-ups) are one
 * visitor's, not a budget the whole run shares, and a retry starts with its own.
 */
function clientAddressOf(testInfo: TestInfo): string {
  const [a, b, c] = createHash('sha256')
    .update(`${testInfo.testId}:${testInfo.repeatEachIndex}:${testInfo.retry}`)
    .digest()
  return `10.${a}.${b}.${c}`
}

export const test = base.extend<Fixtures>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright requires an object pattern for fixtures
  clientAddress: async ({}, use, testInfo) => {
    await use(clientAddressOf(testInfo))
  },
  extraHTTPHeaders: async ({ extraHTTPHeaders, clientAddress }, use) => {
    await use({ ...extraHTTPHeaders, 'x-forwarded-for': clientAddress })
  },
  // Server-rendered pages show before React has hydrated them (decision 0028): after a page load, wait until the app
  // marks itself interactive (__root.tsx), so a test's first click is not lost on inert HTML.
  page: async ({ page, javaScriptEnabled }, use) => {
    if (javaScriptEnabled !== false) {
      const hydrated = () =>
        page
          .waitForFunction(() => document.documentElement.dataset.hydrated === 'true', undefined, { timeout: 15_000 })
          .catch(() => {}) // not an app page (a PDF, an error body): nothing to wait for
      const goto = page.goto.bind(page)
      const reload = page.reload.bind(page)
      page.goto = async (...args) => {
        const response = await goto(...args)
        await hydrated()
        return response
      }
      page.reload = async (...args) => {
        const response = await reload(...args)
        await hydrated()
        return response
      }
    }
    await use(page)
  },
  // The test's own context and any it opens with browser.newContext() (an invitee's, a second shopper's), and in
  // the end their session cookies, which a real log-in sets, and a visitor's live chat cookie.
  secretsUsed: [
    async ({ context, browser }, use) => {
      const found = new Set<string>()
      const contexts: BrowserContext[] = [context]
      await watchForSecrets(context, found)
      const newContext = browser.newContext
      browser.newContext = async (...args) => {
        const opened = await newContext.apply(browser, args)
        await watchForSecrets(opened, found)
        contexts.push(opened)
        return opened
      }
      await use(undefined)
      browser.newContext = newContext
      for (const each of contexts) {
        const cookies = await each.cookies().catch(() => []) // already closed by the test
        for (const cookie of cookies) if (SECRET_COOKIES.includes(cookie.name)) found.add(cookie.value)
      }
      recordSecrets(found)
    },
    { auto: true },
  ],
  // biome-ignore lint/correctness/noEmptyPattern: Playwright requires an object pattern for fixtures
  db: async ({}, use) => {
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: E2E_DATABASE_URL, max: 2 }) }),
    })
    await use(db)
    await db.destroy()
  },
  login: async ({ db, page, baseURL }, use) => {
    await use(async (options = {}) => {
      const user = await createUser(db, options)
      await signInAs(page, baseURL!, db, user)
      return user
    })
  },
})

export async function signInAs(
  page: Page,
  baseURL: string,
  db: Kysely<Database>,
  user: { id: string },
  /** When the session starts: by default the server's own clock, which the clock specs move (TEST_CLOCK). */
  now?: Date,
) {
  const { token } = await createSessionToken(db, user.id, true, now ?? (await serverNow(page, baseURL)))
  await page
    .context()
    .addCookies([{ name: SESSION_COOKIE, value: token, url: baseURL, httpOnly: true, sameSite: 'Lax' }])
}

/** The server's clock (GET /api/test/clock, TEST_CLOCK=on), or this machine's when the route is not there. */
export async function serverNow(page: Page, baseURL: string): Promise<Date | undefined> {
  const response = await page.request.get(`${baseURL}/api/test/clock`).catch(() => null)
  if (!response?.ok()) return undefined
  return new Date(((await response.json()) as { now: string }).now)
}

/**
 * Moves the server's clock forward (TEST_CLOCK=on; only in tests/e2e/*.clock.ts, which run after every other spec)
 * and runs the scheduled jobs that fell due; returns the server's new time and what ran.
 */
export async function advanceServerClock(page: Page, baseURL: string, seconds: number) {
  const response = await page.request.post(`${baseURL}/api/test/clock`, {
    data: { advanceSeconds: seconds },
    headers: { origin: baseURL },
  })
  if (!response.ok()) throw new Error(`The test clock refused: ${response.status()} ${await response.text()}`)
  const body = (await response.json()) as { now: string; ran: string[] }
  // This process's clock keeps step, so what the spec writes afterwards (factories, orders) is dated as the server.
  await followServerClock(page, baseURL)
  return { now: new Date(body.now), ran: body.ran }
}

/**
 * Sets this test process's clock (src-server/kernel/clock.ts, used by the factories' server code) to the server's:
 * the clock specs share one server whose clock earlier specs moved on, so a plan bought or a sale recorded by the
 * spec itself must carry the server's time, not the wall clock's. Call it first in every clock spec.
 */
export async function followServerClock(page: Page, baseURL: string) {
  const server = await serverNow(page, baseURL)
  clock.resetClock()
  if (!server) return
  const ahead = Math.floor((server.getTime() - Date.now()) / 1000)
  if (ahead > 0) await clock.advanceClock(ahead)
}

export { expect } from '@playwright/test'
