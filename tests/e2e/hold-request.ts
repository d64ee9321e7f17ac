// Holding a request back in the browser, so a test sees a control while its request runs (the focus-while-saving
// specs): the control is aria-disabled then, and keeps the keyboard's focus.
import type { Page } from '@playwright/test'

/** Holds back the tRPC procedure's requests by `ms`, so the control is seen while its request runs. */
export async function slow(page: Page, procedure: string, ms = 1500) {
  await page.route(`**/trpc/${procedure}**`, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, ms))
    await route.continue()
  })
}
