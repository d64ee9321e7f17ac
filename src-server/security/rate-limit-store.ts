// Lets @fastify/rate-limit count in our RateLimiter, so plain routes and tRPC procedures share one store
// (memory, or Redis when REDIS_URL is set). A limiter that cannot be reached is reported to `onError` and the plugin,
// registered with skipOnError, lets the request through (decision 0003), as the procedures' limits do.
import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit'
import type { RateLimiter } from './rate-limit.ts'

export function rateLimitStore(limiter: RateLimiter, onError: (error: unknown) => void): FastifyRateLimitStoreCtor {
  class LimiterStore {
    constructor(
      _options: unknown,
      private readonly prefix = 'route:',
    ) {}

    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ) {
      limiter.hit(`${this.prefix}${key}`, timeWindow).then(
        ({ count, ttlMs }) => callback(null, { current: count, ttl: ttlMs }),
        (error: Error) => {
          onError(error)
          callback(error)
        },
      )
    }

    // The plugin passes the merged route settings, with the route itself under routeInfo.
    child(routeOptions: { routeInfo?: { method?: string | string[]; url?: string } }) {
      const info = routeOptions.routeInfo ?? {}
      return new LimiterStore(undefined, `route:${String(info.method)}:${info.url ?? ''}:`)
    }
  }
  return LimiterStore as unknown as FastifyRateLimitStoreCtor
}
