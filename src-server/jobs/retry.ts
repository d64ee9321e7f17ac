// Which attempt a job is on and when the queue will try again after a failure, by pg-boss's retry rule, so a
// handler can log and record it (handlers get a plain Attempt, not pg-boss's job).
import type { JobWithMetadata } from 'pg-boss'

export interface Attempt {
  /** 1 for the first try. */
  number: number
  of: number
  /** When a failure of this attempt would be retried; undefined on the last attempt. */
  nextTry?: { earliest: Date; latest: Date }
}

type RetryPolicy = Pick<JobWithMetadata, 'retryCount' | 'retryLimit' | 'retryDelay' | 'retryBackoff' | 'retryDelayMax'>

export function attemptOf(job: RetryPolicy, now = new Date()): Attempt {
  const number = job.retryCount + 1
  const of = job.retryLimit + 1
  return { number, of, nextTry: number < of ? nextTryWindow(job, now) : undefined }
}

/**
 * With back-off, pg-boss waits a random delay between d·2ⁿ⁻¹ and d·2ⁿ seconds after the n-th attempt (capped by
 * retryDelayMax); without, exactly d seconds.
 */
export function nextTryWindow(
  job: Omit<RetryPolicy, 'retryLimit'>,
  now = new Date(),
): { earliest: Date; latest: Date } {
  const at = (seconds: number) => new Date(now.getTime() + seconds * 1000)
  if (!job.retryBackoff) return { earliest: at(job.retryDelay), latest: at(job.retryDelay) }
  const cap = job.retryDelayMax ?? Number.POSITIVE_INFINITY
  const upper = Math.max(job.retryDelay, 1) * 2 ** Math.min(16, job.retryCount + 1)
  return { earliest: at(Math.min(cap, upper / 2)), latest: at(Math.min(cap, upper)) }
}
