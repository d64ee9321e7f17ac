// Start-up against a database that is not there yet (a container starting beside us, a failover): wait and retry
// with back-off, saying so in the log, instead of exiting and being restarted in a loop. Other errors (a bad
// password, a missing database, a failing migration) still stop start-up at once.
import { isDatabaseUnavailable } from './db-unavailable.ts'

export interface RetryLog {
  warn(details: object, message: string): void
}

export const START_DELAY_MS = 500
export const MAX_DELAY_MS = 15_000

export async function retryWhileUnavailable<T>(
  task: () => Promise<T>,
  log: RetryLog,
  options: { startDelayMs?: number; maxDelayMs?: number; sleep?: (ms: number) => Promise<void> } = {},
): Promise<T> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)))
  let delay = options.startDelayMs ?? START_DELAY_MS
  for (let attempt = 1; ; attempt++) {
    try {
      return await task()
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error
      log.warn(
        { attempt, retryInMs: delay, reason: error instanceof Error ? error.message : String(error) },
        'database unreachable; waiting before trying again',
      )
      await sleep(delay)
      delay = Math.min(delay * 2, options.maxDelayMs ?? MAX_DELAY_MS)
    }
  }
}
