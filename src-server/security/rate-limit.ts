// One rate limiter for tRPC procedures and plain routes: fixed windows counted in memory by default, or in
// Redis when REDIS_URL is set (so several server nodes share the counts).
import type { Redis } from 'ioredis'

export interface RateLimiter {
  readonly kind: 'memory' | 'redis'
  /** Counts one attempt under `key`; returns the attempts in the current window and the ms until it ends. */
  hit(key: string, windowMs: number): Promise<{ count: number; ttlMs: number }>
  /** The attempts counted under `key` in its current window, without counting one more. */
  peek(key: string): Promise<number>
  /** Takes back one attempt counted under `key` (an attempt reserved up front that turned out not to count). */
  release(key: string): Promise<void>
  close(): Promise<void>
}

export interface RateRule {
  max: number
  windowMs: number
}

/** Limits per client (IP, and e-mail where there is one). Generous for people, tight for scripts. */
export const RATE_RULES = {
  login: { max: 10, windowMs: 15 * 60_000 },
  /** Per e-mail from any address: client addresses can be many (botnets, forged proxy headers). */
  loginPerEmail: { max: 30, windowMs: 15 * 60_000 },
  /** Failed log-ins (shop and staff) from one address across all accounts: password spraying. */
  loginFailuresPerAddress: { max: 20, windowMs: 15 * 60_000 },
  /** Staff log-in: 5 FAILED attempts per e-mail and address in 15 minutes (successes are not counted). */
  adminLoginFailures: { max: 5, windowMs: 15 * 60_000 },
  /** Staff log-in: 10 FAILED attempts per account from any addresses lock it for the window (owner notified). */
  adminLoginFailuresPerAccount: { max: 10, windowMs: 15 * 60_000 },
  /**
   * Second-factor codes from one client address across accounts (each account also locks itself after 10 wrong
   * codes: auth/two-factor.ts). Generous: an office behind one address signs in many people.
   */
  twoFactorPerAddress: { max: 30, windowMs: 15 * 60_000 },
  signup: { max: 10, windowMs: 60 * 60_000 },
  /** Reset links asked for, per client address, and per address mailed (nobody floods one inbox from many). */
  passwordReset: { max: 5, windowMs: 15 * 60_000 },
  passwordResetPerEmail: { max: 5, windowMs: 60 * 60_000 },
  /**
   * New passwords set with a link, per client address: counted apart from the requests, so a person who asked a few
   * times can still use the link (the link itself is 200 bits: this bounds the hashing work, not guessing).
   */
  passwordResetUse: { max: 10, windowMs: 15 * 60_000 },
  /** 'Resend verification e-mail': per client address, and per address mailed (nobody floods one inbox). */
  verificationResend: { max: 5, windowMs: 15 * 60_000 },
  verificationResendPerEmail: { max: 3, windowMs: 60 * 60_000 },
  /** Links to move an account to a new address, per address mailed (nobody floods one inbox from many accounts). */
  emailChangePerAddress: { max: 3, windowMs: 60 * 60_000 },
  upload: { max: 10, windowMs: 60_000 },
  /** Contact form messages per client address (each one stores a row and mails the staff). */
  contact: { max: 5, windowMs: 60 * 60_000 },
  /** Applications to teach per person and per client address (each stores a row for staff to read). */
  application: { max: 5, windowMs: 60 * 60_000 },
  /** Questions and answers under lessons, per person (issue 33). */
  lessonPosts: { max: 10, windowMs: 10 * 60_000 },
  /** Reports of posts under lessons, per person. */
  lessonReports: { max: 20, windowMs: 60 * 60_000 },
  /** Messages between members and instructors, per sender (issue 34). */
  instructorMessages: { max: 10, windowMs: 10 * 60_000 },
  /** Live chat messages, per member (decision 0099): a quick conversation, not a flood. */
  chatMessages: { max: 30, windowMs: 10 * 60_000 },
  /** Coupon codes that do not exist, per person and per client address (decision 0114): short codes are guessable. */
  couponMisses: { max: 10, windowMs: 15 * 60_000 },
  couponMissesPerAddress: { max: 30, windowMs: 15 * 60_000 },
  /** A school's webhook test events and replays together (decision 0114): each unanswered one is retried 3 days. */
  webhookManualSends: { max: 30, windowMs: 10 * 60_000 },
  /** A buyer's gift resends (decision 0114): each mails the gift's message to the address the buyer types. */
  giftResends: { max: 5, windowMs: 60 * 60_000 },
  /**
   * Team and co-instructor invitations, per owner across both scopes (decision 0117): each mails an address the
   * owner types, and withdrawing one frees its seat, so the plan's team size alone does not bound the mails.
   */
  teamInvites: { max: 30, windowMs: 60 * 60_000 },
  /**
   * A school's invitations to take a course, per owner (decision 0128): each mails an address the API client sends,
   * so the key's own limit (120 a minute) would let a school mail thousands of strangers an hour.
   */
  enrolmentInvites: { max: 200, windowMs: 60 * 60_000 },
  /** Live chats started by visitors who are not signed in, per client address (decision 0103). */
  visitorChats: { max: 5, windowMs: 60 * 60_000 },
} satisfies Record<string, RateRule>

/** The Fastify route config of upload routes: RATE_RULES.upload per client, refused in the uploads' wording. */
export const UPLOAD_ROUTE_LIMIT = {
  rateLimit: {
    max: RATE_RULES.upload.max,
    timeWindow: RATE_RULES.upload.windowMs,
    errorResponseBuilder: () => ({
      statusCode: 429,
      error: 'Too Many Requests',
      message: 'Too many uploads. Please try again later.',
    }),
  },
}

/** The one-click unsubscribe address (a mail client posts once; a person follows it once or twice). */
export const UNSUBSCRIBE_ROUTE_LIMIT = {
  rateLimit: {
    max: 30,
    timeWindow: 60_000,
    errorResponseBuilder: () => ({
      statusCode: 429,
      error: 'Too Many Requests',
      message: 'Too many requests. Please try again later.',
    }),
  },
}

const MEMORY_MAX_KEYS = 50_000

export function createMemoryLimiter(): RateLimiter {
  const windows = new Map<string, { count: number; resetAt: number }>()
  return {
    kind: 'memory',
    async hit(key, windowMs) {
      const now = Date.now()
      let entry = windows.get(key)
      if (!entry || entry.resetAt <= now) {
        if (windows.size >= MEMORY_MAX_KEYS) pruneExpired(windows, now)
        entry = { count: 0, resetAt: now + windowMs }
        windows.set(key, entry)
      }
      entry.count += 1
      return { count: entry.count, ttlMs: entry.resetAt - now }
    },
    async peek(key) {
      const entry = windows.get(key)
      return entry && entry.resetAt > Date.now() ? entry.count : 0
    },
    async release(key) {
      const entry = windows.get(key)
      if (entry && entry.resetAt > Date.now() && entry.count > 0) entry.count -= 1
    },
    async close() {
      windows.clear()
    },
  }
}

function pruneExpired(windows: Map<string, { resetAt: number }>, now: number) {
  for (const [key, entry] of windows) if (entry.resetAt <= now) windows.delete(key)
  // Still full (an attack from many addresses): forget the oldest half rather than grow without bound.
  if (windows.size >= MEMORY_MAX_KEYS) {
    let drop = windows.size / 2
    for (const key of windows.keys()) {
      if (drop-- <= 0) break
      windows.delete(key)
    }
  }
}

// INCR and set the expiry on the first hit, atomically, and report the time left.
const HIT_SCRIPT = `local c = redis.call('INCR', KEYS[1])
if c == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {c, ttl}`

// DECR only a live, positive count: never create a key without an expiry, never go below zero.
const RELEASE_SCRIPT = `local c = tonumber(redis.call('GET', KEYS[1]) or '0')
if c > 0 then redis.call('DECR', KEYS[1]) end
return 0`

/**
 * How long one Redis command may take before it counts as failed (and the attempt is let through). A healthy Redis
 * answers in a millisecond; without a bound, a Redis that accepts connections and never answers (a stuck process, a
 * firewall dropping packets) held every log-in forever, and one refusing connections held each for 7 to 30 s while
 * ioredis reconnected.
 */
export const REDIS_COMMAND_TIMEOUT_MS = 1000

export function createRedisLimiter(url: string, prefix = 'rl:'): RateLimiter {
  // Fail fast: a limiter that waits for a dead Redis would hang every log-in.
  // ioredis is loaded here, only when REDIS_URL asks for it: it is slow to load for a server that has no Redis.
  const connecting: Promise<Redis> = import('ioredis').then(({ Redis }) => {
    const redis = new Redis(url, {
      maxRetriesPerRequest: 1,
      connectTimeout: 2000,
      enableOfflineQueue: true,
      // Also bounds a command waiting in the offline queue while ioredis reconnects.
      commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    })
    redis.on('error', () => {}) // reported through the failing commands; without a listener Node would crash
    return redis
  })
  return {
    kind: 'redis',
    async hit(key, windowMs) {
      const redis = await connecting
      const [count, ttl] = (await redis.eval(HIT_SCRIPT, 1, `${prefix}${key}`, String(windowMs))) as [number, number]
      return { count, ttlMs: ttl }
    },
    async peek(key) {
      return Number((await (await connecting).get(`${prefix}${key}`)) ?? 0)
    },
    async release(key) {
      await (await connecting).eval(RELEASE_SCRIPT, 1, `${prefix}${key}`)
    },
    async close() {
      const redis = await connecting
      await redis.quit().catch(() => redis.disconnect())
    },
  }
}

export function createRateLimiter(redisUrl: string | undefined): RateLimiter {
  return redisUrl ? createRedisLimiter(redisUrl) : createMemoryLimiter()
}

/**
 * Counts one hit under `key`, or null when the limiter cannot be reached (said through `onError`): the caller then
 * lets the request through, as every limit here does (decision 0003), rather than failing it.
 */
export async function hitUnlessDown(
  limiter: RateLimiter,
  key: string,
  windowMs: number,
  onError: (error: unknown) => void,
): Promise<{ count: number; ttlMs: number } | null> {
  try {
    return await limiter.hit(key, windowMs)
  } catch (error) {
    onError(error)
    return null
  }
}

/**
 * True when this attempt is still within the rule. A limiter that cannot be reached lets the attempt
 * through (and says so in the log): an outage of Redis must not lock every customer out.
 */
export async function allowAttempt(
  limiter: RateLimiter,
  rule: RateRule,
  key: string,
  onError: (error: unknown) => void = () => {},
): Promise<boolean> {
  const hit = await hitUnlessDown(limiter, key, rule.windowMs, onError)
  return hit === null || hit.count <= rule.max
}
