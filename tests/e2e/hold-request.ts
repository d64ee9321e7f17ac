// Holding a request back in the browser, so a test sees a control while its request runs (the focus-while-saving
// specs: the control is aria-disabled then, and keeps the keyboard's focus), or orders two requests' answers (a race
// between two of a page's own requests).
import type { Locator, Page } from '@playwright/test'
import { expect } from './fixtures.ts'

/** Holds back the tRPC procedure's requests by `ms`, so the control is seen while its request runs. */
export async function slow(page: Page, procedure: string, ms = 1500) {
  await page.route(`**/trpc/${procedure}**`, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, ms))
    await route.continue()
  })
}

/**
 * Presses Enter on a control whose request is held back (`slow`), and with `twice` once more while it runs: meanwhile
 * it is aria-disabled and keeps the focus, never disabled (which would drop the focus to the page).
 */
export async function pressWhileBusy(page: Page, control: Locator, { twice = false } = {}) {
  await control.focus()
  await page.keyboard.press('Enter')
  await expect(control).toHaveAttribute('aria-disabled', 'true')
  if (twice) await page.keyboard.press('Enter')
  await expect(control).toBeFocused()
  await expect(control).not.toHaveAttribute('disabled')
}

/**
 * Holds back the tRPC procedure's requests until `release()`: `reached` resolves when the first one is held. The
 * procedure may be batched with others in the same request.
 */
export async function holdUntilReleased(page: Page, procedure: string) {
  let release = () => {}
  const gate = new Promise<void>((resolve) => {
    release = resolve
  })
  let arrived = () => {}
  const reached = new Promise<void>((resolve) => {
    arrived = resolve
  })
  await page.route(
    (url) => url.pathname.startsWith('/trpc/') && url.pathname.includes(procedure),
    async (route) => {
      arrived()
      await gate
      await route.continue()
    },
  )
  return { reached, release: () => release() }
}
