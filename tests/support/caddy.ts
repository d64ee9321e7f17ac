// Whether this machine has Caddy (Debian's package; CI installs it): the tests that run it are skipped without.
import { execFileSync } from 'node:child_process'

export const caddyInstalled = (() => {
  try {
    execFileSync('caddy', ['version'], { stdio: 'ignore', timeout: 5000 })
    return true
  } catch {
    return false
  }
})()
