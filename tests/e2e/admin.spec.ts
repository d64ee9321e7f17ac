// The admin area as staff use it: the owner from ADMIN_EMAIL/ADMIN_PASSWORD manages a course through its whole
// life while the public side follows; a member is invited, joins from the e-mailed link, and meets the role limits.
import { readdirSync, statSync } from 'node:fs'
import type { APIRequestContext, Page } from '@playwright/test'
import { createUser } from '../support/factories.ts'
import { expect, test } from './fixtures.ts'
import { dismissToasts } from './toasts.ts'

const OWNER_EMAIL = process.env.E2E_ADMIN_EMAIL as string
const OWNER_PASSWORD = process.env.E2E_ADMIN_PASSWORD as string
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
)

async function adminLogin(page: Page, email: string, password: string) {
  await page.goto('/admin/login')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
}

async function publicCourse(request: APIRequestContext, id: string) {
  const response = await request.get(`/trpc/catalog.course?input=${encodeURIComponent(JSON.stringify({ id }))}`)
  return ((await response.json()) as { result: { data: { title: string; priceMinor: number } | null } }).result.data
}
async function featuredIds(request: APIRequestContext) {
  const response = await request.get(`/trpc/catalog.featuredCourses?input=${encodeURIComponent('{"limit":24}')}`)
  return ((await response.json()) as { result: { data: { id: string }[] } }).result.data.map((c) => c.id)
}

test.describe('admin access', () => {
  test('visitors are sent to /admin/login; customers and wrong passwords are refused', async ({ page, db }) => {
    const consoleMessages: string[] = []
    page.on('console', (message) => consoleMessages.push(message.text()))
    for (const path of ['/admin', '/admin/users', '/admin/no-such-page']) {
      await page.goto(path)
      await expect(page).toHaveURL(/\/admin\/login\?redirect=/)
    }
    await page.goto('/admin/courses')
    await expect(page).toHaveURL(/\/admin\/login\?redirect=/)
    await expect(page.getByRole('heading', { name: 'Admin Login' })).toBeVisible()
    // The admin area has its own layout: no shop header.
    await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0)

    const customer = await createUser(db, { role: 'customer' })
    await adminLogin(page, customer.email, customer.password)
    await expect(
      page.getByRole('alert').filter({ hasText: 'Invalid email or password. Please try again.' }),
    ).toBeVisible()
    await expect(page.getByText('Login Failed')).toBeVisible()
    await adminLogin(page, OWNER_EMAIL, 'not-the-password')
    await expect(page).toHaveURL(/\/admin\/login/)
    await expect(
      page.getByRole('alert').filter({ hasText: 'Invalid email or password. Please try again.' }),
    ).toBeVisible()
    // Nothing about the attempts reaches the console.
    expect(consoleMessages.filter((text) => text.includes(customer.email) || text.includes(OWNER_EMAIL))).toEqual([])
  })

  test('no admin credential is in the client bundle, and there is no fill-credentials button', async ({
    page,
    request,
  }) => {
    await page.goto('/admin/login')
    await expect(page.getByRole('button')).toHaveText(['Sign in'])
    // No OAuth provider is configured on the end-to-end server (tests/integration/auth/newcomer-sign-in.test.ts).
    await expect(page.getByRole('link', { name: /Google|Facebook/ })).toHaveCount(0)
    // Every built file the browser could load, lazy chunks included.
    const assets = readdirSync('dist/client/assets').filter((name) => name.endsWith('.js'))
    expect(assets.length).toBeGreaterThan(1)
    for (const name of assets) {
      const response = await request.get(`/assets/${name}`)
      expect(response.status(), name).toBe(200)
      const bytes = await response.body()
      expect(bytes.length, name).toBe(statSync(`dist/client/assets/${name}`).size)
      const body = bytes.toString('utf8')
      expect(body).not.toContain(OWNER_EMAIL)
      expect(body).not.toContain(OWNER_PASSWORD)
    }
  })

  test('shows the failure an OAuth sign-in sends back, in its own words (a code: decision 0144)', async ({ page }) => {
    await page.goto('/admin/login?error=not_staff&via=google')
    await expect(page.getByRole('alert')).toHaveText('Google login failed: This account does not have staff access.')
  })
})

test.describe('the owner manages a course', () => {
  test('add, edit, publish, feature and delete; the public catalogue follows each step', async ({
    page,
    db,
    request,
  }) => {
    // A whole course's life in one journey (~90 steps): over 30 s on a busy 2-core machine.
    test.setTimeout(90_000)
    await adminLogin(page, OWNER_EMAIL, OWNER_PASSWORD)
    await expect(page.getByText('Login Successful')).toBeVisible()
    await expect(page.getByText('Welcome to the admin dashboard!')).toBeVisible()
    await expect(page).toHaveURL(/\/admin$/)
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible()
    const courseCount = await db.selectFrom('courses').select('id').where('status', '!=', 'archived').execute()
    await expect(page.getByTestId('stat-Total Courses')).toHaveText(String(courseCount.length))
    // Premium's monthly webinar is staff's to schedule: the dashboard says when the next is, and where to plan it.
    const webinar = page.getByRole('region', { name: 'Premium webinar' })
    await expect(webinar.getByTestId('next-premium-webinar')).toHaveText(/^(None scheduled|\w+ \d+, \d{4}.*)$/)
    await expect(webinar.getByRole('link', { name: 'Schedule and manage live sessions' })).toHaveAttribute(
      'href',
      '/live/manage',
    )

    await page.getByRole('complementary', { name: 'Admin navigation' }).getByRole('link', { name: 'Courses' }).click()
    await expect(page.getByRole('heading', { name: 'Manage Courses' })).toBeVisible()
    await page.getByRole('button', { name: 'Add New Course' }).click()
    const dialog = page.getByRole('dialog', { name: 'Add New Course' })
    await expect(dialog.getByText('Create a new course for your platform.')).toBeVisible()

    // The server refuses a course without title and description.
    await dialog.getByRole('button', { name: 'Save Course' }).click()
    await expect(dialog.getByLabel('Title *', { exact: true })).toHaveAccessibleDescription(
      'Please fill in required fields',
    )

    const title = `E2E Kotlin ${Date.now()}`
    await dialog.getByLabel('Title *', { exact: true }).fill(title)
    await dialog.getByLabel('Description *', { exact: true }).fill('Kotlin from zero to coroutines.')
    await dialog.getByLabel('Price ($)', { exact: true }).fill('abc')
    await dialog.getByRole('button', { name: 'Save Course' }).click()
    await expect(page.getByText('Price must be a number')).toBeVisible()
    await dialog.getByLabel('Price ($)', { exact: true }).fill('49.50')
    await dialog.getByLabel('Instructor', { exact: true }).fill('Kim Kotlin')
    await dialog.getByLabel('Course image').setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: PNG })
    await expect(page.getByText('Image uploaded successfully!')).toBeVisible()
    await dialog.getByRole('button', { name: 'Add section' }).click()
    await dialog.getByLabel('Section 1 title').fill('Basics')
    await dialog.getByRole('button', { name: 'Add lesson' }).click()
    await dialog.getByLabel('Lesson 1 title').fill('Variables')
    await dialog.getByLabel('Duration (m:ss)').fill('12:30')
    await dialog.getByRole('button', { name: 'Save Course' }).click()
    await expect(page.getByText('Course added successfully!')).toBeVisible()
    await expect(dialog).toBeHidden()

    const created = await db
      .selectFrom('courses')
      .select(['id', 'status', 'lessons_count', 'duration_minutes', 'image_url', 'price_minor'])
      .where('title', '=', title)
      .executeTakeFirstOrThrow()
    expect(created).toMatchObject({ status: 'draft', lessons_count: 1, duration_minutes: 13, price_minor: 4950 })
    expect(created.image_url).toMatch(/^\/uploads\/courses\//)
    // A draft is invisible to the public.
    expect(await publicCourse(request, created.id)).toBeNull()
    await page.goto(`/courses/${created.id}`)
    await expect(page.getByRole('heading', { name: 'Course Not Found' })).toBeVisible()

    // Search on the server finds it; edit it to publish under a new title.
    await page.goto('/admin/courses')
    await page.getByPlaceholder('Search courses...').fill(title)
    const row = page.getByTestId(`course-row-${created.id}`)
    await expect(row).toBeVisible()
    await expect(page.locator('tbody tr')).toHaveCount(1)
    await expect(row.getByText('1 lesson • 13m • Beginner')).toBeVisible()
    await expect(row.getByText('$49.50')).toBeVisible()
    await expect(row.getByText('Draft')).toBeVisible()
    await row.getByRole('button', { name: `Edit ${title}` }).click()
    const edit = page.getByRole('dialog', { name: 'Edit Course' })
    await expect(edit.getByLabel('Title *', { exact: true })).toHaveValue(title)
    await edit.getByLabel('Title *', { exact: true }).fill(`${title} Pro`)
    await edit.getByLabel('Status').selectOption('published')
    await edit.getByRole('button', { name: 'Update Course' }).click()
    await expect(page.getByText('Course updated successfully!')).toBeVisible()
    expect(await publicCourse(request, created.id)).toMatchObject({ title: `${title} Pro`, priceMinor: 4950 })
    await expect(row.getByText('Published')).toBeVisible()

    // Featured switch.
    expect(await featuredIds(request)).not.toContain(created.id)
    await row.locator('[data-scope="switch"][data-part="control"]').click()
    await expect(page.getByText('Course featured successfully!')).toBeVisible()
    expect(await featuredIds(request)).toContain(created.id)

    // The public detail page shows it.
    const publicPage = await page.context().newPage()
    await publicPage.goto(`/courses/${created.id}`)
    await expect(publicPage.getByRole('heading', { name: `${title} Pro` })).toBeVisible()
    await expect(publicPage.getByText('$49.50')).toBeVisible()

    // Delete asks first.
    await row.getByRole('button', { name: `Delete ${title} Pro` }).click()
    const confirm = page.getByRole('dialog', { name: 'Delete course?' })
    await confirm.getByRole('button', { name: 'Cancel' }).click()
    await expect(row).toBeVisible()
    await row.getByRole('button', { name: `Delete ${title} Pro` }).click()
    await confirm.getByRole('button', { name: 'Delete' }).click()
    await expect(page.getByText('Course deleted successfully!')).toBeVisible()
    await expect(page.getByText('No courses found')).toBeVisible()
    expect(await publicCourse(request, created.id)).toBeNull()
    expect(await featuredIds(request)).not.toContain(created.id)
    await publicPage.reload()
    await expect(publicPage.getByRole('heading', { name: 'Course Not Found' })).toBeVisible()

    // Every step is in the audit log.
    await page.getByRole('link', { name: 'Audit log' }).click()
    // This course's entries: other runs' courses (under --repeat-each) have theirs too.
    const entries = page.getByRole('row').filter({ hasText: `course ${created.id}` })
    await expect(entries.filter({ hasText: 'course.delete' })).toHaveCount(1)
    // Said in words for staff, the action's code beside them.
    await expect(entries.filter({ hasText: 'course.delete' })).toContainText('Deleted a course')
    await expect(entries.filter({ hasText: 'course.feature' }).first()).toBeVisible()

    await page.getByRole('button', { name: 'Logout' }).click()
    await expect(page.getByText('Logged Out', { exact: true })).toBeVisible()
    await expect(page.getByText('You have been logged out successfully.')).toBeVisible()
    await expect(page).toHaveURL(/\/admin\/login/)
    await page.goto('/admin')
    await expect(page).toHaveURL(/\/admin\/login/)
  })
})

test.describe('team', () => {
  test('an invited editor joins from the e-mailed link and meets the role limits', async ({ page, db, browser }) => {
    // Two browsers, an e-mail, a join, role limits and a removal: over 30 s on a busy 2-core machine.
    test.setTimeout(90_000)
    await adminLogin(page, OWNER_EMAIL, OWNER_PASSWORD)
    await expect(page).toHaveURL(/\/admin$/)
    await page
      .getByRole('complementary', { name: 'Admin navigation' })
      .getByRole('link', { name: 'Team Members' })
      .click()
    await expect(page.getByTestId(`member-${OWNER_EMAIL}`).getByText('Owner', { exact: false }).first()).toBeVisible()
    // The owner's own row offers no role change or removal.
    await expect(page.getByTestId(`member-${OWNER_EMAIL}`).getByRole('combobox')).toHaveCount(0)

    const email = `editor-${Date.now()}@e2e.test`
    await page.getByRole('button', { name: 'Add Team Member' }).click()
    const dialog = page.getByRole('dialog', { name: 'Add Team Member' })
    await expect(dialog.getByLabel('Role')).toHaveValue('viewer')
    await dialog.getByLabel('Name').fill('Eve Editor')
    await dialog.getByLabel('Email').fill(email)
    await dialog.getByLabel('Role').selectOption('editor')
    await dialog.getByRole('button', { name: 'Add Member' }).click()
    // The end-to-end server has no SMTP_URL: nothing is e-mailed, and the toast says so.
    await expect(page.getByText('Invitation created', { exact: true })).toBeVisible()
    await dialog.getByRole('button', { name: 'Done' }).click()
    await expect(page.getByTestId(`invite-${email}`).getByText('Editor', { exact: true })).toBeVisible()

    const mail = await db
      .selectFrom('mail_outbox')
      .select('text_body')
      .where('to_address', '=', email)
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow()
    const link = /http\S+\/admin\/accept-invite\?token=\S+/.exec(mail.text_body)?.[0]
    expect(link).toMatch(/^http:\/\/[^/]+\/admin\/accept-invite\?token=[A-Za-z0-9_-]{20,}$/)

    const invitee = await browser.newContext()
    const tab = await invitee.newPage()
    await tab.goto(link!)
    await expect(tab.getByText(`${email} is invited to join as`)).toBeVisible()
    const password = tab.getByLabel('Password', { exact: true })
    const confirm = tab.getByLabel('Confirm password')
    // Each refusal is tied to its field (message as its description, aria-invalid, focus) and keeps what was typed.
    await password.fill('short')
    await tab.getByRole('button', { name: 'Join the team' }).click()
    await expect(password).toHaveAttribute('aria-invalid', 'true')
    await expect(password).toHaveAccessibleDescription('Password must be at least 8 characters')
    await expect(password).toBeFocused()
    await password.fill('eve-password-1')
    await confirm.fill('eve-password-2')
    await confirm.press('Enter')
    await expect(confirm).toHaveAccessibleDescription('The passwords do not match')
    await expect(confirm).toBeFocused()
    await expect(password).not.toHaveAttribute('aria-invalid', 'true')
    await expect(password).toHaveValue('eve-password-1')
    await confirm.fill('eve-password-1')
    await tab.getByRole('button', { name: 'Join the team' }).click()
    await expect(tab).toHaveURL(/\/admin$/)
    await expect(tab.getByTestId('admin-name')).toHaveText('Eve Editor')

    // Editor limits: courses yes, team management and the audit log no.
    const sidebar = tab.getByRole('complementary', { name: 'Admin navigation' })
    await expect(sidebar.getByRole('link', { name: 'Courses' })).toBeVisible()
    await expect(sidebar.getByRole('link', { name: 'Audit log' })).toHaveCount(0)
    await sidebar.getByRole('link', { name: 'Courses' }).click()
    await expect(tab.getByRole('button', { name: 'Add New Course' })).toBeVisible()
    await sidebar.getByRole('link', { name: 'Team Members' }).click()
    await expect(tab.getByTestId(`member-${email}`)).toBeVisible()
    await expect(tab.getByRole('button', { name: 'Add Team Member' })).toHaveCount(0)
    await expect(tab.getByRole('button', { name: /^Remove / })).toHaveCount(0)
    await tab.goto('/admin/audit')
    await expect(tab.getByText('You do not have permission to do that')).toBeVisible()

    // Once accepted, the invitation is no longer pending; the link works once.
    await page.reload()
    await expect(page.getByTestId(`member-${email}`)).toBeVisible()
    await expect(page.getByTestId(`invite-${email}`)).toHaveCount(0)
    const again = await (await browser.newContext()).newPage()
    await again.goto(link!)
    await expect(again.getByText('This invitation link is invalid or has expired', { exact: false })).toBeVisible()

    // The owner changes the new member's role inline; then removes them, which signs them out.
    await page.reload()
    await page.getByLabel('Role of Eve Editor').selectOption('viewer')
    await expect(page.getByText('Role updated successfully!')).toBeVisible()
    await tab.goto('/admin/courses')
    await expect(tab.getByRole('heading', { name: 'Manage Courses' })).toBeVisible()
    await expect(tab.getByRole('button', { name: 'Add New Course' })).toHaveCount(0)
    await expect(tab.getByRole('button', { name: /^Edit / })).toHaveCount(0)

    await page.getByRole('button', { name: 'Remove Eve Editor' }).click()
    await page.getByRole('dialog', { name: 'Remove team member?' }).getByRole('button', { name: 'Remove' }).click()
    await expect(page.getByText('Team member removed successfully!')).toBeVisible()
    await tab.goto('/admin')
    await expect(tab).toHaveURL(/\/admin\/login/)
    await invitee.close()
  })

  test('staff see an admin not-found page for unknown admin paths', async ({ page, login }) => {
    await login({ role: 'viewer' })
    await page.goto('/admin/no-such-page')
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible()
    await page.getByRole('link', { name: 'Back to the dashboard' }).click()
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible()
  })

  test('a viewer sees the admin area read-only', async ({ page, login }) => {
    await login({ role: 'viewer', firstName: 'Val', lastName: 'Viewer' })
    await page.goto('/admin/courses')
    await expect(page.getByTestId('admin-name')).toHaveText('Val Viewer')
    await expect(page.locator('tbody tr').first()).toBeVisible()
    await expect(page.getByRole('button', { name: 'Add New Course' })).toHaveCount(0)
    await expect(page.getByRole('button', { name: /^Delete / })).toHaveCount(0)
    await expect(page.locator('[data-scope="switch"][data-part="root"]').first()).toHaveAttribute('data-disabled', '')
    await page.goto('/admin/categories')
    await expect(page.getByRole('button', { name: 'Add New Category' })).toHaveCount(0)
  })
})

test.describe('categories', () => {
  test('an editor adds, edits and deletes a category; one in use is refused with a reason', async ({
    page,
    login,
    db,
  }) => {
    await login({ role: 'editor' })
    await page.goto('/admin/categories')
    const development = page.getByTestId('category-row-development')
    const used = await db
      .selectFrom('courses')
      .innerJoin('categories', 'categories.id', 'courses.category_id')
      .select('courses.id')
      .where('categories.slug', '=', 'development')
      .where('courses.status', '!=', 'archived')
      .execute()
    await expect(development.getByRole('cell').nth(2)).toHaveText(String(used.length))

    await page.getByRole('button', { name: 'Add New Category' }).click()
    const dialog = page.getByRole('dialog', { name: 'Add New Category' })
    await dialog.getByRole('button', { name: 'Save Category' }).click()
    await expect(dialog.getByLabel('Name *')).toHaveAccessibleDescription('Category name is required')
    const name = `Cat ${Date.now()}`
    await dialog.getByLabel('Name *').fill(name)
    await dialog.getByLabel('Description').fill('Made by the e2e test')
    await dialog.getByRole('button', { name: 'Save Category' }).click()
    await expect(page.getByText('Category added successfully!')).toBeVisible()
    const row = page.getByRole('row', { name: new RegExp(name) })
    await expect(row.getByRole('cell').nth(2)).toHaveText('0')

    await row.getByRole('button', { name: `Edit ${name}` }).click()
    const edit = page.getByRole('dialog', { name: 'Edit Category' })
    await expect(edit.getByLabel('Name *')).toHaveValue(name)
    await edit.getByLabel('Name *').fill(`${name} renamed`)
    await edit.getByRole('button', { name: 'Update Category' }).click()
    await expect(page.getByText('Category updated successfully!')).toBeVisible()
    const renamed = page.getByRole('row', { name: new RegExp(`${name} renamed`) })
    await expect(renamed).toBeVisible()

    await development.getByRole('button', { name: /^Delete / }).click()
    await page.getByRole('dialog', { name: 'Delete category?' }).getByRole('button', { name: 'Delete' }).click()
    await expect(page.getByText(/This category cannot be deleted while \d+ courses? uses? it/)).toBeVisible()
    await expect(development).toBeVisible()
    // The refused confirmation closes; wait for it to finish leaving before opening the next one.
    await expect(page.getByRole('dialog', { name: 'Delete category?' })).toHaveCount(0)
    // Three toasts now stand over the bottom of the table, where the new row is (where it is depends on the rows other
    // tests left): the editor dismisses them first, as a person would.
    await dismissToasts(page)

    await renamed.getByRole('button', { name: /^Delete / }).click()
    await page.getByRole('dialog', { name: 'Delete category?' }).getByRole('button', { name: 'Delete' }).click()
    await expect(page.getByText('Category deleted successfully!')).toBeVisible()
    await expect(renamed).toHaveCount(0)
  })

  test('a toast takes no clicks beyond its own box: what lies just above it can be pressed', async ({
    page,
    login,
  }) => {
    await login({ role: 'editor' })
    await page.goto('/admin/categories')
    await page.getByRole('button', { name: 'Add New Category' }).click()
    const dialog = page.getByRole('dialog', { name: 'Add New Category' })
    await dialog.getByLabel('Name *').fill(`Toast ${Date.now()}`)
    await dialog.getByRole('button', { name: 'Save Category' }).click()
    const toast = page.getByRole('status').filter({ hasText: 'Category added successfully!' })
    await expect(toast).toBeVisible()
    // Once it has slid in (its transitions finished: two equal looks at its box could fall in one frame of a slow
    // slide), the point 6 px above it — inside the gap Ark keeps between toasts — belongs to the page, not the toasts.
    await expect(toast).toHaveAttribute('data-mounted', '')
    await toast.evaluate((element) => Promise.all(element.getAnimations().map((animation) => animation.finished)))
    const box = await toast.boundingBox()
    const above = await page.evaluate(
      ({ x, y }) => (document.elementFromPoint(x, y)?.closest('[data-part=group]') ? 'toasts' : 'page'),
      { x: box!.x + box!.width / 2, y: box!.y - 6 },
    )
    expect(above).toBe('page')
  })
})

test.describe('outbox', () => {
  test('Next goes to the next page and Previous back to the first (its URL without ?page)', async ({
    page,
    login,
    db,
  }) => {
    // More sent messages than one page holds (20), so the outbox has a second page whatever else is queued.
    const to = `outbox-pages-${Date.now()}@e2e.test`
    await db
      .insertInto('mail_outbox')
      .values(
        Array.from({ length: 21 }, (_, n) => ({
          kind: 'e2e',
          to_address: to,
          subject: `Paging ${n}`,
          text_body: 'body',
          status: 'sent' as const,
          sent_at: new Date(),
        })),
      )
      .execute()
    await login({ role: 'admin' })
    await page.goto('/admin/outbox')
    const pager = page.getByRole('navigation', { name: 'Pagination' })
    await expect(pager.getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page')
    await pager.getByRole('button', { name: 'Next' }).click()
    await expect(page).toHaveURL(/\/admin\/outbox\?page=2$/)
    await expect(pager.getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page')
    await pager.getByRole('button', { name: 'Previous' }).click()
    await expect(page).toHaveURL(/\/admin\/outbox$/)
    await expect(pager.getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page')
  })

  test('Recipient finds the mail sent to one address, in any case; the address never goes in a request address', async ({
    page,
    login,
    db,
  }) => {
    const to = `outbox-find-${Date.now()}@e2e.test`
    await db
      .insertInto('mail_outbox')
      .values(
        [
          { subject: 'Welcome', to_address: to },
          { subject: 'Your receipt', to_address: to },
          { subject: 'Not theirs', to_address: `someone-else-${to}` },
        ].map(({ subject, to_address }) => ({
          kind: 'e2e',
          to_address,
          subject,
          text_body: 'body',
          status: 'sent' as const,
          sent_at: new Date(),
        })),
      )
      .execute()
    await login({ role: 'admin' })
    const addresses: string[] = []
    page.on('request', (request) => addresses.push(request.url()))
    await page.goto('/admin/outbox')
    const search = page.getByRole('search', { name: 'Find the mail sent to one address' })
    const recipient = search.getByLabel('Recipient')

    await recipient.fill('outbox-find')
    await search.getByRole('button', { name: 'Find', exact: true }).click()
    await expect(page.getByText('Enter a whole e-mail address, such as name@example.com')).toBeVisible()
    await expect(recipient).toBeFocused()
    await expect(recipient).toHaveAttribute('aria-invalid', 'true')

    await recipient.fill(to.toUpperCase())
    await recipient.press('Enter')
    const rows = page.getByTestId('outbox-row')
    await expect(rows).toHaveCount(2)
    await expect(rows.nth(0)).toContainText(to)
    await expect(rows.nth(1)).toContainText(to)
    await expect(recipient).not.toHaveAttribute('aria-invalid')

    await search.getByRole('button', { name: 'Show all' }).click()
    await expect(recipient).toHaveValue('')
    await expect(search.getByRole('button', { name: 'Show all' })).toHaveCount(0)
    await expect(rows.filter({ hasText: `someone-else-${to}` })).toBeVisible()

    await recipient.fill(`nobody-${to}`)
    await search.getByRole('button', { name: 'Find', exact: true }).click()
    await expect(page.getByText(`No messages to nobody-${to}`)).toBeVisible()
    expect(addresses.filter((address) => decodeURIComponent(address).includes('outbox-find-'))).toEqual([])
  })

  test('on a 390 px phone each message stacks, its View button in sight without scrolling sideways', async ({
    page,
    login,
    db,
  }) => {
    const to = `outbox-phone-${Date.now()}@e2e.test`
    await db
      .insertInto('mail_outbox')
      .values({
        kind: 'e2e',
        to_address: to,
        subject: 'A subject long enough to need room on a small screen',
        text_body: 'body',
        status: 'sent',
        sent_at: new Date(),
      })
      .execute()
    await login({ role: 'admin' })
    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto('/admin/outbox')
    // Found by its address: a burst of other specs' mails could push it off the first page.
    await page.getByLabel('Recipient').fill(to)
    await page.getByRole('button', { name: 'Find', exact: true }).click()
    const view = page.getByRole('button', { name: `View message to ${to}: A subject long enough` })
    await expect(view).toBeVisible()
    // Within the screen's width as the page opens, and nothing to scroll sideways: not the page, not the list's panel.
    const box = await view.boundingBox()
    expect(box!.x).toBeGreaterThanOrEqual(0)
    expect(box!.x + box!.width).toBeLessThanOrEqual(390)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    const panel = await view.evaluate((element) => {
      const scroller = element.closest('table')!.parentElement!
      return { scrollWidth: scroller.scrollWidth, clientWidth: scroller.clientWidth }
    })
    expect(panel.scrollWidth).toBeLessThanOrEqual(panel.clientWidth)
    await view.click()
    await expect(page.getByTestId('outbox-body')).toHaveText('body')
  })
})
