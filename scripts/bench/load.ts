// A small closed-loop HTTP load generator (autocannon-like): `connections` keep-alive clients each send the next
// request as soon as the previous answer has been read, for `seconds`. Loopback only.
import http from 'node:http'
import { percentile } from './stats.ts'

export interface LoadResult {
  requests: number
  errors: number
  seconds: number
  latencies: number[]
}

export async function runLoad(url: string, connections: number, seconds: number): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections })
  const latencies: number[] = []
  let errors = 0
  const deadline = performance.now() + seconds * 1000
  const started = performance.now()
  const one = () =>
    new Promise<void>((resolve) => {
      const t = performance.now()
      const request = http.get(url, { agent }, (response) => {
        response.resume()
        response.on('end', () => {
          if (response.statusCode === 200) latencies.push(performance.now() - t)
          else errors++
          resolve()
        })
      })
      request.on('error', () => {
        errors++
        resolve()
      })
    })
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) await one()
    }),
  )
  agent.destroy()
  return { requests: latencies.length, errors, seconds: (performance.now() - started) / 1000, latencies }
}

export function summarise(results: LoadResult[]) {
  const latencies = results.flatMap((r) => r.latencies)
  const requests = results.reduce((sum, r) => sum + r.requests, 0)
  const seconds = results.reduce((sum, r) => sum + r.seconds, 0)
  return {
    rps: requests / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    errors: results.reduce((sum, r) => sum + r.errors, 0),
  }
}

/**
 * Runs `work` over `items` with `concurrency` calls in flight, each taking the next item as soon as its previous one
 * is done; returns each call's time in ms and the seconds the whole run took.
 */
export async function inFlight<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>) {
  const times: number[] = []
  let next = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const item = items[next++] as T
        const start = performance.now()
        await work(item)
        times.push(performance.now() - start)
      }
    }),
  )
  return { times, seconds: (performance.now() - started) / 1000 }
}

/** A copy of `items` in random order (every order equally likely). */
export function shuffled<T>(items: readonly T[]): T[] {
  return items
    .map((item) => ({ item, key: Math.random() }))
    .sort((a, b) => a.key - b.key)
    .map(({ item }) => item)
}
