// docs/deploy/Caddyfile (decision 0063) is a configuration Caddy accepts, and it asks the app before issuing a
// certificate on demand. Skipped where Caddy is not installed.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { caddyInstalled as caddy } from '../support/caddy.ts'

describe('the deploy Caddyfile', () => {
  it('asks /internal/domain-allowed before on-demand TLS', () => {
    const text = readFileSync('docs/deploy/Caddyfile', 'utf8')
    expect(text).toMatch(/on_demand_tls\s*\{\s*ask http:\/\/127\.0\.0\.1:3000\/internal\/domain-allowed/)
    expect(text).toMatch(/tls\s*\{\s*on_demand\s*\}/)
  })

  it.skipIf(!caddy)('validates with caddy', () => {
    const out = execFileSync('caddy', ['validate', '--config', 'docs/deploy/Caddyfile', '--adapter', 'caddyfile'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 20_000,
    })
    expect(out).toContain('Valid configuration')
  })
})
