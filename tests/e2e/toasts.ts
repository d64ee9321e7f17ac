// Toasts stand in the bottom-right corner, over whatever is there (a table's last rows, a dialog's Save button), and
// pointing at one pauses them all: a click aimed through them waits forever. A person dismisses them first; so do the
// specs where the clicks land there.
import { expect, type Page } from '@playwright/test'

export async function dismissToasts(page: Page) {
  const toasts = page.getByRole('region', { name: /^Notifications/ })
  const showing = toasts.locator('[role=status][data-state=open]')
  // A toast of an action that answered late can come after the last one was dismissed, under the pointer that has
  // just pressed a Dismiss button there, which keeps it: the pointer moves off them, and the whole round is tried again
  // until none is left.
  await expect(async () => {
    while ((await showing.count()) > 0) {
      // One may leave by itself between the count and the click: the loop then counts again.
      await showing
        .first()
        .getByRole('button', { name: 'Dismiss notification' })
        .click({ timeout: 2000 })
        .catch(() => undefined)
    }
    await page.mouse.move(0, 0)
    // Closing ones fade out under the pointer's reach no more (toaster-view.tsx): only open ones are in the way.
    await expect(showing).toHaveCount(0, { timeout: 2000 })
  }).toPass({ timeout: 20_000 })
}
