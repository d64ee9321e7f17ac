// Records, in the page, every loading spinner and every page heading as they appear, so a test can tell what a
// visitor saw between two screens (a spinner under the new page's heading; a page that flashed before a redirect).
import type { Page } from '@playwright/test'

interface Seen {
  /** For each loading spinner inserted: the page heading (main h1) shown at that moment, or null. */
  spinnersUnder: (string | null)[]
  /** Every page heading inserted. */
  headings: string[]
}

declare global {
  interface Window {
    __seen: Seen
  }
}

export async function watchPage(page: Page) {
  await page.addInitScript(() => {
    window.__seen = { spinnersUnder: [], headings: [] }
    const heading = () => document.querySelector('main h1')?.textContent?.trim() ?? null
    new MutationObserver((records) => {
      for (const record of records) {
        for (const node of record.addedNodes) {
          if (!(node instanceof Element)) continue
          // LoadingState: a busy box holding a role=status spinner.
          const spinners = [node, ...node.querySelectorAll('*')].filter(
            (el) => el.matches('[aria-busy="true"]') && el.querySelector('[role="status"]'),
          )
          for (const _ of spinners) window.__seen.spinnersUnder.push(heading())
          for (const h1 of [node, ...node.querySelectorAll('h1')].filter((el) => el.matches('main h1'))) {
            window.__seen.headings.push(h1.textContent?.trim() ?? '')
          }
        }
      }
    }).observe(document, { childList: true, subtree: true })
  })
  return {
    /** Forget what was seen so far (call before the navigation under test). */
    reset: () => page.evaluate(() => Object.assign(window.__seen, { spinnersUnder: [], headings: [] })),
    seen: () => page.evaluate(() => window.__seen),
  }
}
