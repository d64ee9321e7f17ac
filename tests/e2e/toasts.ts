// Toasts stand in the bottom-right corner, over whatever is there (a table's last rows, a dialog's Save button), and
// pointing at one pauses them all: a click aimed through them waits forever. A person dismisses them first; so do the
// specs where the clicks land there.
import { expect, type Page } from '@playwright/test'

export async function dismissToasts(page: Page) {
  const toasts = page.getByRole('region', { name: /^Notifications/ })
  const showing = toasts.locator('[role=status][data-state=open]')
  while ((await showing.count()) > 0) {
    // One may leave by itself between the count and the click: the loop then counts again.
    await showing
      .first()
      .getByRole('button', { name: 'Dismiss notification' })
      .click({ timeout: 2000 })
      .catch(() => undefined)
  }
  await expect(toasts.getByRole('status')).toHaveCount(0)
  await page.mouse.move(0, 0)
}
