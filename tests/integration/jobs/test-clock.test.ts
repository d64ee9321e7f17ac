// The one clock and TEST_CLOCK: the route exists only when asked for, moves the clock forward only, and runs the
// scheduled work that fell due in between, once each, in the registry's order.
import { afterEach, describe, expect, it } from 'vitest'
import type { handlers } from '../../../src-server/jobs/registry.ts'
import { schedules } from '../../../src-server/jobs/registry.ts'
import { runDueSchedules } from '../../../src-server/jobs/start.ts'
import { now, resetClock, setDueWorkRunner } from '../../../src-server/kernel/clock.ts'
import { serveForThisFile } from '../../support/test-server.ts'

afterEach(() => {
  resetClock()
  setDueWorkRunner(null)
})

/** Handlers that only note that they ran. */
function recordingHandlers(ran: string[]) {
  return Object.fromEntries(
    schedules.map((schedule) => [schedule.name, async () => void ran.push(schedule.name)]),
  ) as unknown as ReturnType<typeof handlers>
}

describe('scheduled work that falls due while the clock moves', () => {
  it('runs nothing when no schedule falls inside the span', async () => {
    const ran: string[] = []
    const due = await runDueSchedules(
      recordingHandlers(ran),
      new Date('2026-03-10T12:00:05Z'),
      new Date('2026-03-10T12:00:55Z'),
    )
    expect(due).toEqual([])
    expect(ran).toEqual([])
  })

  it('runs each schedule once over 31 days, holds released before the month’s payouts', async () => {
    const ran: string[] = []
    const due = await runDueSchedules(
      recordingHandlers(ran),
      new Date('2026-03-10T12:00:00Z'),
      new Date('2026-04-10T12:00:00Z'),
    )
    expect(new Set(due)).toEqual(new Set(schedules.map((schedule) => schedule.name)))
    expect(ran).toEqual(due)
    expect(due.indexOf('earnings.release-holds')).toBeLessThan(due.indexOf('earnings.payouts'))
    // The month's Premium pool is credited before the payouts that pay it.
    expect(due.indexOf('earnings.premium-pool')).toBeLessThan(due.indexOf('earnings.payouts'))
  })

  it('does not run the monthly payouts within a month that has no 1st at 06:00 in it', async () => {
    const ran: string[] = []
    await runDueSchedules(recordingHandlers(ran), new Date('2026-03-02T00:00:00Z'), new Date('2026-03-31T00:00:00Z'))
    expect(ran).not.toContain('earnings.payouts')
    expect(ran).toContain('earnings.release-holds')
  })
})

describe('without TEST_CLOCK', () => {
  const site = serveForThisFile()
  it('has no clock route at all', async () => {
    expect((await fetch(`${site.baseUrl}/api/test/clock`)).status).toBe(404)
    const post = await fetch(`${site.baseUrl}/api/test/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://storefront.test' },
      body: JSON.stringify({ advanceSeconds: 60 }),
    })
    expect(post.status).toBe(404)
  })
})

describe('with TEST_CLOCK=on', () => {
  const site = serveForThisFile({ env: { TEST_CLOCK: 'on' } })
  const advance = (body: unknown) =>
    fetch(`${site.baseUrl}/api/test/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://storefront.test' },
      body: JSON.stringify(body),
    })

  it('moves the server’s clock forward and runs what fell due', async () => {
    const ran: string[] = []
    setDueWorkRunner((from, to) => runDueSchedules(recordingHandlers(ran), from, to))
    const before = Date.now()
    const response = await advance({ advanceSeconds: 31 * 24 * 3600 })
    expect(response.status).toBe(200)
    const body = (await response.json()) as { now: string; ran: string[] }
    const movedBy = new Date(body.now).getTime() - before
    expect(movedBy).toBeGreaterThanOrEqual(31 * 24 * 3600 * 1000)
    expect(movedBy).toBeLessThan(31 * 24 * 3600 * 1000 + 60_000)
    expect(body.ran).toContain('earnings.payouts')
    expect(ran).toEqual(body.ran)
    // The server's business code reads the same clock.
    expect(now().getTime()).toBeGreaterThanOrEqual(new Date(body.now).getTime())
    const read = (await (await fetch(`${site.baseUrl}/api/test/clock`)).json()) as { now: string }
    expect(new Date(read.now).getTime()).toBeGreaterThanOrEqual(new Date(body.now).getTime())
  })

  it.each([
    [{ advanceSeconds: -1 }],
    [{ advanceSeconds: 1.5 }],
    [{ advanceSeconds: 400 * 24 * 3600 }],
    [{ advanceSeconds: '60' }],
    [{ advanceSeconds: 60, extra: true }],
    [{}],
  ])('refuses %j with a clear 400 and leaves the clock alone', async (body) => {
    const before = now().getTime()
    const response = await advance(body)
    expect(response.status).toBe(400)
    expect(((await response.json()) as { message: string }).message).toMatch(/advanceSeconds/)
    expect(now().getTime() - before).toBeLessThan(60_000)
  })
})
