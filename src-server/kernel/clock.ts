// The one clock the server's business rules read: refund holds, payout months, drip dates, coupon windows,
// deletion cool-offs, session and token expiry. It is the system clock, except under TEST_CLOCK=on, where a test
// may move it forward (http/test-clock.ts) to see a 30-day hold end or a month's payouts run. Durations measured
// for logs and rate-limit windows keep the system clock: they are about the machine, not the business.

let offsetMs = 0

/** What the business calls "now". */
export function now(): Date {
  return new Date(Date.now() + offsetMs)
}

/** now() in milliseconds since the epoch. */
export function nowMs(): number {
  return Date.now() + offsetMs
}

/** Runs the scheduled work that fell due between two instants of the clock (set by the worker, jobs/start.ts). */
export type DueWorkRunner = (from: Date, to: Date) => Promise<string[]>
let dueWorkRunner: DueWorkRunner | null = null

export function setDueWorkRunner(runner: DueWorkRunner | null): void {
  dueWorkRunner = runner
}

export interface ClockAdvance {
  from: Date
  to: Date
  /** The scheduled jobs that fell due in between and ran, in schedule order (none without a worker here). */
  ran: string[]
}

/** Moves the clock forward (TEST_CLOCK=on only: the route that calls it exists only then). */
export async function advanceClock(seconds: number): Promise<ClockAdvance> {
  if (!Number.isFinite(seconds) || seconds < 0) throw new RangeError('The clock only moves forward')
  const from = now()
  offsetMs += Math.round(seconds * 1000)
  const to = now()
  const ran = dueWorkRunner ? await dueWorkRunner(from, to) : []
  return { from, to, ran }
}

/** Back to the system clock (tests that moved it, in their clean-up). */
export function resetClock(): void {
  offsetMs = 0
}
