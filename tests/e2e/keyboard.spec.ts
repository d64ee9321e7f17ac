// Keyboard only: a purchase from search to the fake Stripe's Pay, the bank-details dialog, the mobile menus and an
// admin course edit. No mouse clicks; after each action that replaces or removes the focused element the test
// asserts where focus went, and Tab never lands on <body>.
import type { Locator, Page } from '@playwright/test'
import { insertCourse } from '../../db/seed/factories.ts'
import { addCartItem } from '../../src-server/cart/repository.ts'
import { createUser } from '../support/factories.ts'
import { expect, test } from './fixtures.ts'
import { holdUntilReleased } from './hold-request.ts'

/** Presses Tab (or Shift+Tab) until the target has focus; fails if focus ever falls to <body> on the way. */
async function tabTo(page: Page, target: Locator, { back = false, max = 80 } = {}) {
  await expect(target).toBeVisible()
  for (let presses = 0; presses < max; presses++) {
    if (await target.evaluate((element) => element === document.activeElement)) return
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab')
    expect(await page.evaluate(() => document.activeElement?.tagName), 'focus fell to <body>').not.toBe('BODY')
  }
  throw new Error(`${target} not reached in ${max} presses of Tab`)
}

/** Presses Tab n times and checks that focus stays inside the container (a focus trap). */
async function expectTrapped(page: Page, container: Locator, presses = 12) {
  for (let i = 0; i < presses; i++) {
    await page.keyboard.press(i % 3 === 2 ? 'Shift+Tab' : 'Tab')
    expect(await container.evaluate((element) => element.contains(document.activeElement)), 'focus left').toBe(true)
  }
}

test('a purchase with the keyboard only: search, course, Add to Cart, cart, checkout and the fake Stripe', async ({
  page,
  login,
  db,
}) => {
  const user = await login()
  const course = await db
    .selectFrom('courses')
    .select(['id', 'title'])
    .where('id', '=', 'modern-react-typescript')
    .executeTakeFirstOrThrow()
  // Two older lines (a cart holds one plan: another course and Pro), so Remove can be shown moving focus to the
  // next line and then to the heading.
  const older = await db
    .selectFrom('courses')
    .select(['id', 'title'])
    .where('id', '=', 'javascript-fundamentals')
    .executeTakeFirstOrThrow()
  await addCartItem(db, user.id, { kind: 'course', courseId: older.id })
  await addCartItem(db, user.id, { kind: 'plan', planId: 'pro', billingCycle: 'annual' })

  await page.goto('/courses')
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  // The first Tab reaches "Skip to content"; Enter moves focus to <main>.
  await page.keyboard.press('Tab')
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('main')).toBeFocused()

  // Search: focus goes to the results heading.
  const searchBox = page.getByRole('searchbox', { name: 'Search courses' })
  await tabTo(page, searchBox)
  await page.keyboard.type('React with TypeScript')
  await page.keyboard.press('Enter')
  const results = page.getByTestId('catalogue-count')
  await expect(results).toBeFocused()
  await expect(page).toHaveURL(/search=React/)

  // The course: Enter on its link.
  await tabTo(page, page.getByRole('link', { name: course.title, exact: true }))
  await page.keyboard.press('Enter')
  await expect(page.getByRole('heading', { level: 1, name: course.title })).toBeVisible()

  // Add to Cart: the button keeps focus as it becomes "Added to Cart"; the toast announces it.
  const purchase = page.getByRole('complementary', { name: 'Purchase' })
  await tabTo(page, purchase.getByRole('button', { name: 'Add to Cart' }))
  await page.keyboard.press('Enter')
  await expect(page.getByText(`${course.title} added to cart`)).toBeVisible()
  const added = purchase.getByRole('button', { name: 'Added to Cart' })
  await expect(added).toBeFocused()
  await expect(added).toBeDisabled()
  await expect(page.getByRole('region', { name: /Notifications/ })).toHaveAttribute('aria-live', 'polite')

  // The cart, from the header's link (newest line first: the course, Pro, the older course).
  await tabTo(page, page.getByTestId('cart-link'), { back: true })
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('cart-item')).toHaveCount(3)
  // Remove Pro (the middle line): focus goes to the next line's Remove button.
  await tabTo(page, page.getByRole('button', { name: 'Remove Pro Plan' }))
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('cart-item')).toHaveCount(2)
  await expect(page.getByRole('button', { name: `Remove ${older.title}` })).toBeFocused()
  // Remove the older course (now the last line): focus goes to the cart's heading.
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('cart-item')).toHaveCount(1)
  await expect(page.getByRole('heading', { name: '1 item' })).toBeFocused()

  // Checkout: the card option with Space, then Pay.
  await tabTo(page, page.getByRole('button', { name: 'Proceed to Checkout' }))
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/\/payment/)
  const card = page.getByRole('radio', { name: /Credit \/ Debit Card/ })
  await tabTo(page, card)
  await page.keyboard.press('Space')
  await expect(card).toBeChecked()
  await tabTo(page, page.getByRole('button', { name: /^Pay / }))
  await page.keyboard.press('Enter')

  // The fake Stripe's hosted page: Tab to Pay, Enter.
  await expect(page.getByRole('heading', { name: 'Fake Stripe Checkout' })).toBeVisible()
  await tabTo(page, page.getByRole('button', { name: 'Pay' }))
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/\/payment-success\?session_id=cs_test_/)
  await expect(page.getByRole('heading', { name: 'Payment Successful!' })).toBeVisible()
})

test('the bank-details dialog traps focus, closes on Escape and gives focus back to Pay', async ({
  page,
  login,
  db,
}) => {
  const user = await login()
  await addCartItem(db, user.id, { kind: 'course', courseId: 'modern-react-typescript' })
  await page.goto('/payment')
  // Tab enters the radio group at its first option; the arrow keys move (and check) within it.
  await tabTo(page, page.getByRole('radio', { name: /Credit \/ Debit Card/ }))
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('ArrowDown')
  const bank = page.getByRole('radio', { name: /Bank Transfer/ })
  await expect(bank).toBeChecked()
  await expect(bank).toBeFocused()
  const pay = page.getByRole('button', { name: /^Pay / })
  await tabTo(page, pay)
  await page.keyboard.press('Enter')

  const dialog = page.getByRole('dialog', { name: 'Bank Transfer Details' })
  await expect(dialog).toBeVisible()
  await expect.poll(() => dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true)
  await expectTrapped(page, dialog)
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await expect(pay).toBeFocused()
})

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } })

  test('the mobile menu traps focus, closes on Escape and gives focus back to its button', async ({ page }) => {
    await page.goto('/pricing')
    const open = page.getByRole('button', { name: 'Open menu' })
    await tabTo(page, open)
    await page.keyboard.press('Enter')
    const menu = page.getByRole('dialog', { name: 'Menu' })
    await expect(menu.getByRole('navigation', { name: 'Mobile' })).toBeVisible()
    await expect.poll(() => menu.evaluate((element) => element.contains(document.activeElement))).toBe(true)
    await expectTrapped(page, menu)
    await page.keyboard.press('Escape')
    await expect(menu).toBeHidden()
    await expect(open).toBeFocused()
  })

  test('the admin sidebar is a drawer: Escape closes it and focus returns', async ({ page, login }) => {
    await login({ role: 'admin' })
    await page.goto('/admin')
    const open = page.getByRole('button', { name: 'Open admin menu' })
    await tabTo(page, open)
    await page.keyboard.press('Enter')
    const drawer = page.getByRole('dialog', { name: 'SkillForge Admin' })
    await expect(drawer.getByRole('link', { name: 'Orders', exact: true })).toBeVisible()
    await expectTrapped(page, drawer)
    await page.keyboard.press('Escape')
    await expect(drawer).toBeHidden()
    await expect(open).toBeFocused()
    // Enter on a link navigates and closes the drawer.
    await page.keyboard.press('Enter')
    await tabTo(page, drawer.getByRole('link', { name: 'Orders', exact: true }))
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(/\/admin\/orders$/)
    await expect(drawer).toBeHidden()
  })
})

test('an admin edits a course and features it with the keyboard only', async ({ page, login, db }) => {
  await login({ role: 'admin' })
  const category = await db.selectFrom('categories').select('id').orderBy('id').executeTakeFirstOrThrow()
  const stamp = Date.now().toString(36)
  const id = `kbd-${stamp}`
  const name = `Keyboard Course ${stamp}`
  await insertCourse(db, {
    id,
    title: name,
    description: 'A course the keyboard test edits and features.',
    category_id: category.id,
    status: 'published',
  })
  await page.goto(`/admin/courses?search=${encodeURIComponent(name)}`)
  const row = page.getByTestId(`course-row-${id}`)
  await expect(row).toBeVisible()

  const edit = row.getByRole('button', { name: `Edit ${name}` })
  await tabTo(page, edit)
  await page.keyboard.press('Enter')
  const dialog = page.getByRole('dialog', { name: 'Edit Course' })
  await expect(dialog).toBeVisible()
  const title = dialog.getByRole('textbox', { name: 'Title *' })
  await tabTo(page, title)
  await page.keyboard.press('ControlOrMeta+A')
  await page.keyboard.type(`${name}, Edited`)
  await tabTo(page, dialog.getByRole('button', { name: 'Update Course' }))
  await page.keyboard.press('Enter')
  await expect(page.getByText('Course updated successfully!')).toBeVisible()
  await expect(dialog).toBeHidden()
  // Focus is back on the row's Edit button (its name follows the new title).
  await expect(row.getByRole('button', { name: `Edit ${name}, Edited` })).toBeFocused()
  expect((await db.selectFrom('courses').select('title').where('id', '=', id).executeTakeFirstOrThrow()).title).toBe(
    `${name}, Edited`,
  )

  // The Featured switch: Space flips it, and its control shows a focus ring while its input has focus.
  const featured = row.getByRole('checkbox', { name: `Featured: ${name}, Edited` })
  // Back from Edit, past the row's links: the switch's cell comes before the actions (forward, Tab would leave the page
  // past the last control, which a headless browser does not wrap around).
  await tabTo(page, featured, { back: true })
  const ring = await row
    .locator('[data-part="control"]')
    .evaluate((control) => `${getComputedStyle(control).outlineStyle} ${getComputedStyle(control).outlineWidth}`)
  expect(ring).toBe('solid 2px')
  await page.keyboard.press('Space')
  await expect(page.getByText('Course featured successfully!')).toBeVisible()
  await expect(featured).toBeChecked()
  await expect(featured).toBeFocused()
})

test('an admin arrows through a team member’s roles and only the one chosen with Enter is saved; while it is saved the select keeps focus and takes no other', async ({
  page,
  login,
  db,
}) => {
  await login({ role: 'admin' })
  // A name of its own: a retry must not find the member the first attempt made.
  const lastName = `Keys ${Date.now().toString(36)}`
  const member = await createUser(db, { role: 'editor', firstName: 'Arrow', lastName })
  await page.goto('/admin/users')
  const role = page.getByLabel(`Role of Arrow ${lastName}`)
  // Focused directly, not reached by Tab: the team list holds every staff account the run's earlier tests made (the
  // new member last), and tabbing down it took 22 s of the 30 (and past it on a loaded CI machine). Tab order is the
  // other tests' subject; this one's is the arrow keys.
  await role.focus()
  // On a closed select an arrow key changes the value at once (Chromium on Linux and Windows): each option passed
  // is only shown; Enter saves the one showing.
  await page.keyboard.press('ArrowUp')
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('ArrowDown')
  await expect(role).toHaveValue('viewer')
  const held = await holdUntilReleased(page, 'admin.team.changeRole')
  await page.keyboard.press('Enter')
  await held.reached
  // While the role is saved: aria-disabled, not disabled (which would drop the focus), and another choice not taken.
  await expect(role).toHaveAttribute('aria-disabled', 'true')
  await expect(role).not.toHaveAttribute('disabled')
  await expect(role).toBeFocused()
  await page.keyboard.press('ArrowUp')
  await page.keyboard.press('Enter')
  held.release()
  await expect(page.getByText('Role updated successfully!')).toBeVisible()
  await expect(role).not.toHaveAttribute('aria-disabled')
  await expect(role).toHaveValue('viewer')
  await expect(role).toBeFocused()
  const changes = await db
    .selectFrom('audit_log')
    .select('after')
    .where('action', '=', 'team.role')
    .where('entity_id', '=', member.id)
    .execute()
  expect(changes.map((change) => (change.after as { role: string }).role)).toEqual(['viewer'])
})

test('focus rings: dark blue on light pages, white on the blue hero (at least 3:1 on each)', async ({ page }) => {
  await page.goto('/')
  const hero = page.getByRole('link', { name: 'Get Started For Free' })
  await tabTo(page, hero)
  expect(await hero.evaluate((element) => getComputedStyle(element).outlineColor)).toBe('rgb(255, 255, 255)')
  await page.goto('/pricing')
  const annual = page.getByRole('button', { name: 'Annual (Save 16%)' })
  await tabTo(page, annual)
  // brand.700 (#1d41b8): 8.1:1 on white; white: 5.6:1 on the hero's lightest blue (#2553e0).
  expect(await annual.evaluate((element) => getComputedStyle(element).outlineColor)).toBe('rgb(29, 65, 184)')
})

test('a failed submit takes focus to the first invalid field, which carries its error', async ({ page }) => {
  await page.goto('/signup')
  await tabTo(page, page.getByRole('button', { name: 'Create Account' }))
  await page.keyboard.press('Enter')
  const firstName = page.getByRole('textbox', { name: 'First name' })
  await expect(firstName).toBeFocused()
  await expect(firstName).toHaveAttribute('aria-invalid', 'true')
  const errorId = (await firstName.getAttribute('aria-describedby'))?.split(' ')[0]
  const error = page.locator(`[id="${errorId}"]`)
  await expect(error).not.toBeEmpty()
  await expect(firstName).toHaveAccessibleDescription((await error.textContent()) ?? 'missing')
})

test('prefers-reduced-motion turns transitions off', async ({ page }) => {
  const transition = () =>
    page
      .getByTestId('course-card')
      .first()
      .evaluate((card) => getComputedStyle(card).transitionDuration)
  await page.goto('/courses')
  expect(await transition()).toBe('0.15s')
  await page.emulateMedia({ reducedMotion: 'reduce' })
  expect(Number.parseFloat(await transition())).toBeLessThan(0.001)
})
