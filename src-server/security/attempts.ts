// Attempts reserved before the work they guard (an argon2 hash), so that concurrent calls, such as the calls of
// one tRPC batch, each see the ones before them; a "failures" rule gives the attempt back when it succeeds.
import { DomainError } from '../kernel/errors.ts'
import { RATE_RULES, type RateLimiter, type RateRule } from './rate-limit.ts'

export interface AttemptGuard {
  rule: RateRule
  key: string
}

export interface ReservedAttempt {
  /** The count this attempt got under each guard, in the guards' order (0 when the limiter was unreachable). */
  counts: number[]
  /** Gives the attempt back (it was not a failure). */
  release(): Promise<void>
}

/**
 * Counts one attempt under every guard, or refuses it with a `rate_limited` DomainError carrying `message` when
 * any guard is already full (a refused attempt is given back: only real tries count). A limiter that cannot be
 * reached lets the attempt through and says so through `onError`, as allowAttempt does.
 */
export async function reserveAttempt(
  limiter: RateLimiter,
  guards: AttemptGuard[],
  message: string,
  onError: (error: unknown) => void = () => {},
): Promise<ReservedAttempt> {
  let counts: number[]
  try {
    counts = await Promise.all(guards.map(async ({ rule, key }) => (await limiter.hit(key, rule.windowMs)).count))
  } catch (error) {
    onError(error)
    return { counts: guards.map(() => 0), release: async () => {} }
  }
  const release = async () => {
    await Promise.all(guards.map(({ key }) => limiter.release(key))).catch(onError)
  }
  if (guards.some(({ rule }, index) => (counts[index] ?? 0) > rule.max)) {
    await release()
    throw new DomainError('rate_limited', message)
  }
  return { counts, release }
}

/** Failed log-ins from one client address, the shop's and the staff form together (password spraying). */
export function loginFailuresFromAddress(clientIp: string): AttemptGuard {
  return { rule: RATE_RULES.loginFailuresPerAddress, key: `login-failures-ip:${clientIp}` }
}
