// Slows password guessing on the admin log-in: after MAX_FAILURES failed attempts for one e-mail from one
// address within WINDOW_MS, further attempts are refused until the window passes. In memory: one process.
export const MAX_FAILURES = 5
export const WINDOW_MS = 15 * 60 * 1000
export const TOO_MANY_ATTEMPTS = 'Too many login attempts. Please try again in 15 minutes.'

interface Entry {
  failures: number
  firstAt: number
}

export function createLoginThrottle(now: () => number = Date.now) {
  const entries = new Map<string, Entry>()
  const current = (key: string) => {
    const entry = entries.get(key)
    if (entry && now() - entry.firstAt > WINDOW_MS) {
      entries.delete(key)
      return undefined
    }
    return entry
  }
  return {
    isBlocked: (key: string) => (current(key)?.failures ?? 0) >= MAX_FAILURES,
    fail(key: string) {
      const entry = current(key)
      if (entry) entry.failures += 1
      else entries.set(key, { failures: 1, firstAt: now() })
      // Bounded memory under a flood of distinct keys.
      if (entries.size > 10_000) entries.delete(entries.keys().next().value as string)
    },
    succeed: (key: string) => void entries.delete(key),
  }
}

export const adminLoginThrottle = createLoginThrottle()
