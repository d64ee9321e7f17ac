// Whether the site is served over HTTPS, which alone justifies HSTS, `upgrade-insecure-requests` and Secure
// cookies. Only an https PUBLIC_URL says so: a production server on plain http (a LAN address, 127.0.0.1 next to
// localhost) would otherwise have every script upgraded to a port that does not answer and its session refused.
import type { Env } from '../env.ts'

export function servedOverHttps(env: Pick<Env, 'NODE_ENV'> & Partial<Pick<Env, 'PUBLIC_URL'>>): boolean {
  return env.NODE_ENV === 'production' && (env.PUBLIC_URL?.startsWith('https://') ?? false)
}
