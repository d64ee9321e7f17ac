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
