// A database outage as the browser sees it: /trpc answers 503 with tRPC's error body, one entry per procedure
// of a batched call (the shape the server's error formatter sends).
import type { Page, Route } from '@playwright/test'
import { OUTAGE } from '../../src-shared/outage.ts'

/** The procedures a /trpc request calls ("/trpc/a,b?batch=1" → ["a", "b"]). */
export function proceduresOf(url: string): string[] {
  return decodeURIComponent(new URL(url).pathname.replace(/^\/trpc\//, '')).split(',')
}

export async function answerUnavailable(route: Route) {
  const url = route.request().url()
  const error = (path: string) => ({
    error: { message: OUTAGE.message, code: -32603, data: { code: 'SERVICE_UNAVAILABLE', httpStatus: 503, path } },
  })
  const batched = new URL(url).searchParams.get('batch') === '1'
  const procedures = proceduresOf(url)
  await route.fulfill({
    status: 503,
    contentType: 'application/json',
    headers: { 'retry-after': '5' },
    body: JSON.stringify(batched ? procedures.map(error) : error(procedures[0] ?? '')),
  })
}

/**
 * Answers every /trpc call with 503 while the outage is on (calls of `only` procedures, when given), counting
 * the calls each procedure got. Returns the switch and the counts.
 */
export async function simulateOutage(page: Page, only?: string[]) {
  const state = { on: true, calls: new Map<string, number>() }
  await page.route('**/trpc/**', async (route) => {
    const procedures = proceduresOf(route.request().url())
    for (const name of procedures) state.calls.set(name, (state.calls.get(name) ?? 0) + 1)
    const hit = !only || procedures.some((name) => only.includes(name))
    if (state.on && hit) await answerUnavailable(route)
    else await route.fallback()
  })
  return state
}
