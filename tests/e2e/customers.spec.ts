// /admin/customers (decision 0155), as support staff click it: from the sidebar, a customer's address typed in capitals
// shows their account, plan, service order (which opens) and messages; an unknown address says so; the address never
// goes in a request URL; on a 390 px phone nothing scrolls sideways; an admin reads the look-up in the audit log. An
// admin moves a customer who lost their mailbox to a new address (decision 0158) and answers their privacy requests
// (decision 0159), signs a customer out everywhere (0162) or suspends an account (0160: a creator's earnings wait,
// 0164); an editor keeps notes about a customer (0161).

import { contactMessage } from '../support/contact-messages.ts'
import { buyPlan } from '../support/creator-courses.ts'
import { ownedCourse, sell } from '../support/earnings.ts'
import { createUser } from '../support/factories.ts'
import { paidServiceOrder } from '../support/service-orders.ts'
import { axeViolations } from './a11y.ts'
import { expect, signInAs, test } from './fixtures.ts'
import { mailedLink } from './mailed-link.ts'

test('staff look a customer up by their address and open their service order; the address stays out of every URL', async ({
  page,
  db,
  baseURL,
}) => {
  const stamp = Date.now()
  const customer = await createUser(db, { email: `carla-${stamp}@example.test`, firstName: 'Carla' })
  await buyPlan(db, customer, 'pro')
  const serviceOrderId = await paidServiceOrder(db, customer.id)
  await contactMessage(db, customer.email, `Where is my company? ${stamp}`, { name: 'Carla' })
  const viewer = await createUser(db, { role: 'viewer' })
  await signInAs(page, baseURL!, db, viewer)
  const urls: string[] = []
  page.on('request', (request) => urls.push(decodeURIComponent(request.url()).toLowerCase()))
  await page.goto('/admin')
  await page.getByRole('link', { name: 'Customers', exact: true }).click()
  await expect(page.getByRole('heading', { name: 'Customers', level: 1 })).toBeVisible()
  await expect(page.getByText('Find a customer by their e-mail address')).toBeVisible()

  const search = page.getByRole('search', { name: 'Find a customer' })
  const field = search.getByLabel('Customer e-mail')
  await field.fill(`carla-${stamp}`)
  await field.press('Enter')
  await expect(search.getByText('Enter a whole e-mail address, such as name@example.com')).toBeVisible()
  await expect(field).toBeFocused()

  await field.fill(customer.email.toUpperCase())
  await search.getByRole('button', { name: 'Find', exact: true }).click()
  const found = page.getByTestId('customer')
  await expect(found.getByRole('heading', { name: /Carla/ })).toBeVisible()
  await expect(found.getByTestId('customer-plan')).toContainText('Pro')
  await expect(found.getByTestId('customer-message')).toContainText(`Where is my company? ${stamp}`)
  await expect(found.getByRole('heading', { name: 'Messages to support (1 open, 0 answered)' })).toBeVisible()
  await expect(found.getByTestId('customer-order')).toHaveCount(2) // the plan's order and the service's
  // A viewer reads whether a change of address waits, and cannot start one (decision 0158).
  await expect(found.getByText('No change of address waits.')).toBeVisible()
  await expect(found.getByRole('form', { name: 'Move to another address' })).toHaveCount(0)
  // …and reads the privacy requests without their buttons (decision 0159).
  await expect(found.getByTestId('customer-export')).toContainText('None asked for.')
  await expect(found.getByRole('region', { name: 'Privacy requests' }).getByRole('button')).toHaveCount(0)
  await expect(found.getByText('No notes yet.')).toBeVisible()
  await expect(found.getByRole('form', { name: 'Add a note' })).toHaveCount(0)

  await page.setViewportSize({ width: 390, height: 844 })
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)

  await search.getByLabel('Customer e-mail').fill(`nobody-${stamp}@example.test`)
  await search.getByRole('button', { name: 'Find', exact: true }).click()
  await expect(page.getByText(`No account with the address nobody-${stamp}@example.test`)).toBeVisible()
  await field.fill(customer.email)
  await field.press('Enter')
  await found.getByTestId('customer-service-order').getByRole('link').click()
  await expect(page).toHaveURL(new RegExp(`/admin/service-orders/${serviceOrderId}$`))
  expect(urls.filter((url) => url.includes(`-${stamp}@example.test`))).toEqual([])

  // An admin finds in the audit log, by the customer's address, who looked them up: the viewer and the account's id.
  await signInAs(page, baseURL!, db, await createUser(db, { role: 'admin' }))
  await page.goto('/admin/audit')
  const find = page.getByRole('search', { name: 'Find one account’s entries' })
  await find.getByLabel('Account e-mail').fill(customer.email.toUpperCase())
  await find.getByRole('button', { name: 'Find', exact: true }).click()
  const lookups = page.getByRole('row').filter({ hasText: 'customer.viewed' })
  await expect(lookups.first()).toContainText(viewer.email)
  await expect(lookups.first()).toContainText('Looked up a customer')
  await expect(lookups.first()).toContainText(`user ${customer.id}`)
  // Polled: the whole log's page stays in view (keepPreviousData) until the filtered one arrives.
  await expect(page.getByRole('row').filter({ hasNotText: customer.id })).toHaveCount(1) // the header row alone
  await find.getByLabel('Account e-mail').fill(`nobody-${stamp}@example.test`)
  await find.getByRole('button', { name: 'Find', exact: true }).click()
  await expect(page.getByText(`No account with the address nobody-${stamp}@example.test`)).toBeVisible()
  expect(urls.filter((url) => url.includes(`-${stamp}@example.test`))).toEqual([])
})

test('a customer’s address on the support inbox and a service order opens their page, the address in no URL', async ({
  page,
  db,
  baseURL,
}) => {
  const stamp = Date.now()
  const customer = await createUser(db, { email: `dora-${stamp}@example.test`, firstName: 'Dora' })
  const serviceOrderId = await paidServiceOrder(db, customer.id)
  const subject = `My formation ${stamp}`
  await contactMessage(db, customer.email, subject, { name: 'Dora' })
  await signInAs(page, baseURL!, db, await createUser(db, { role: 'viewer' }))
  const urls: string[] = []
  page.on('request', (request) => urls.push(decodeURIComponent(request.url()).toLowerCase()))

  await page.goto('/admin/support')
  const search = page.getByRole('search', { name: 'Find one person’s messages' })
  await search.getByLabel('Sender’s e-mail').fill(customer.email)
  await search.getByRole('button', { name: 'Find', exact: true }).click()
  await page.getByTestId('support-row').filter({ hasText: subject }).getByRole('link', { name: customer.email }).click()
  await expect(page).toHaveURL(/\/admin\/customers$/)
  await expect(page.getByRole('search', { name: 'Find a customer' }).getByLabel('Customer e-mail')).toHaveValue(
    customer.email,
  )
  await expect(page.getByTestId('customer').getByRole('heading', { name: /Dora/ })).toBeVisible()
  await expect(page.getByTestId('customer-message')).toContainText(subject)
  // Reloaded, the page looks the customer up again from the history entry (still not in the URL).
  await page.reload()
  await expect(page.getByTestId('customer').getByRole('heading', { name: /Dora/ })).toBeVisible()

  await page.goto(`/admin/service-orders/${serviceOrderId}`)
  await page.getByRole('link', { name: customer.email }).click()
  await expect(page).toHaveURL(/\/admin\/customers$/)
  await expect(page.getByTestId('customer-service-order')).toHaveCount(1)
  expect(urls.filter((url) => url.includes(`-${stamp}@example.test`))).toEqual([])
})

test('an admin moves a customer who lost their mailbox: a taken address is refused, a mistyped one cancelled, the link moves the account', async ({
  page,
  db,
  baseURL,
}) => {
  const stamp = Date.now()
  const customer = await createUser(db, { email: `moving-${stamp}@example.test`, firstName: 'Mona' })
  const other = await createUser(db, { email: `someone-${stamp}@example.test` })
  const newAddress = `mona-new-${stamp}@example.test`
  await signInAs(page, baseURL!, db, await createUser(db, { role: 'admin' }))
  await page.goto('/admin/customers')
  const search = page.getByRole('search', { name: 'Find a customer' })
  await search.getByLabel('Customer e-mail').fill(customer.email)
  await search.getByLabel('Customer e-mail').press('Enter')
  const part = page.getByRole('region', { name: 'E-mail address' })
  await expect(part.getByText('No change of address waits.')).toBeVisible()

  const form = part.getByRole('form', { name: 'Move to another address' })
  const field = form.getByLabel('New e-mail address')
  await field.fill(other.email)
  await field.press('Enter')
  await expect(
    form.getByText('That address has an account of its own. Look it up before moving anything.'),
  ).toBeVisible()
  await expect(field).toBeFocused()

  // A mistyped address is cancelled before anyone opens its link.
  await field.fill(`mona-typo-${stamp}@example.test`)
  await form.getByRole('button', { name: 'Send confirmation link' }).click()
  await expect(part.getByTestId('customer-email-pending')).toContainText(`mona-typo-${stamp}@example.test`)
  await part.getByRole('button', { name: 'Cancel this change' }).click()
  await expect(page.getByText('Link cancelled')).toBeVisible()
  await expect(part.getByTestId('customer-email-pending')).toHaveCount(0)

  await field.fill(newAddress)
  await field.press('Enter')
  await expect(part.getByTestId('customer-email-pending')).toContainText(newAddress)
  await expect(field).toHaveValue('')

  // The customer opens the link from their new mailbox, in a browser of their own.
  const customersBrowser = await page.context().browser()!.newPage()
  await customersBrowser.goto(`${baseURL}${await mailedLink(db, newAddress, '/change-email')}`)
  await expect(customersBrowser.getByText(`Your account’s e-mail address is now ${newAddress}.`)).toBeVisible()
  await customersBrowser.close()

  await search.getByLabel('Customer e-mail').fill(newAddress)
  await search.getByLabel('Customer e-mail').press('Enter')
  await expect(page.getByTestId('customer').getByRole('heading', { name: /Mona/ })).toBeVisible()
  await expect(part.getByText(newAddress, { exact: true })).toHaveCount(0) // no link waits any more
  await expect(part.getByText('No change of address waits.')).toBeVisible()
})

test('an admin answers a customer’s privacy requests: a copy of their data, a deletion read, scheduled and cancelled', async ({
  page,
  db,
  baseURL,
}) => {
  const stamp = Date.now()
  const customer = await createUser(db, { email: `private-${stamp}@example.test`, firstName: 'Pia' })
  await signInAs(page, baseURL!, db, await createUser(db, { role: 'admin' }))
  await page.goto('/admin/customers')
  const search = page.getByRole('search', { name: 'Find a customer' })
  await search.getByLabel('Customer e-mail').fill(customer.email)
  await search.getByLabel('Customer e-mail').press('Enter')
  const part = page.getByRole('region', { name: 'Privacy requests' })
  await expect(part.getByTestId('customer-export')).toContainText('None asked for.')
  // Every part an admin sees (status, notes, address, privacy and the rest) passes axe, and fits a phone.
  expect(await axeViolations(page), 'axe on the customer page as an admin').toEqual([])
  await page.setViewportSize({ width: 390, height: 844 })
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
  await page.setViewportSize({ width: 1280, height: 800 })

  await part.getByRole('button', { name: 'Prepare a copy of their data' }).click()
  await expect(part.getByTestId('customer-export')).toContainText('being prepared; they are e-mailed when it is ready')
  await expect(part.getByRole('button', { name: 'Being prepared…' })).toHaveAttribute('aria-disabled', 'true')

  await part.getByRole('button', { name: 'Schedule deletion' }).click()
  const dialog = page.getByRole('dialog', { name: 'Schedule this account’s deletion?' })
  await expect(dialog).toContainText(`Only at ${customer.email}’s own request.`)
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(dialog).toHaveCount(0)
  await expect(part.getByTestId('customer-deletion')).toContainText('Not scheduled.')
  await part.getByRole('button', { name: 'Schedule deletion' }).click()
  await dialog.getByRole('button', { name: 'Schedule deletion' }).click()
  await expect(part.getByTestId('customer-deletion')).toContainText('Scheduled: the account is erased on')
  const scheduled = () =>
    db.selectFrom('account_deletions').select('erased_at').where('user_id', '=', customer.id).execute()
  expect(await scheduled()).toHaveLength(1)

  await part.getByRole('button', { name: 'Cancel deletion' }).click()
  await expect(part.getByTestId('customer-deletion')).toContainText('Not scheduled.')
  await expect.poll(async () => (await scheduled()).length).toBe(0)
})

test('an admin suspends an account with a reason: its browser is signed out and its password refused until it is lifted', async ({
  page,
  db,
  baseURL,
  browser,
}) => {
  const stamp = Date.now()
  const customer = await createUser(db, { email: `fraud-${stamp}@example.test`, firstName: 'Finn' })
  // They sold a course: what they earned waits while they are suspended (decision 0164).
  await sell(db, [await ownedCourse(db, customer.id, 4999)])
  const theirs = await browser.newPage()
  await signInAs(theirs, baseURL!, db, customer)
  await theirs.goto(`${baseURL}/account`)
  await expect(theirs.getByRole('heading', { name: 'My Account', level: 1 })).toBeVisible()

  await signInAs(page, baseURL!, db, await createUser(db, { role: 'admin' }))
  await page.goto('/admin/customers')
  const search = page.getByRole('search', { name: 'Find a customer' })
  await search.getByLabel('Customer e-mail').fill(customer.email)
  await search.getByLabel('Customer e-mail').press('Enter')
  const part = page.getByRole('region', { name: 'Account status' })
  await expect(part).toContainText('Active: they can sign in.')
  // First the lighter step (decision 0162): signed out on every device, they can sign in again.
  await expect(part.getByTestId('customer-sign-ins')).toContainText('Signed in on one device')
  await part.getByRole('button', { name: 'Sign out everywhere' }).click()
  await expect(part.getByTestId('customer-sign-ins')).toHaveText('Not signed in anywhere now.')
  await expect(part.getByRole('button', { name: 'Sign out everywhere' })).toHaveCount(0)
  await theirs.goto(`${baseURL}/account`)
  await expect(theirs).toHaveURL(/\/login/)
  await signInAs(theirs, baseURL!, db, customer)

  await part.getByRole('button', { name: 'Suspend account' }).click()
  const dialog = page.getByRole('dialog', { name: 'Suspend this account?' })
  const reason = dialog.getByLabel('Reason (sent to the customer)')
  await reason.fill('spam')
  await dialog.getByRole('button', { name: 'Suspend account' }).click()
  await expect(dialog.getByText('Say why in a sentence: the customer is sent it')).toBeVisible()
  await reason.fill('Messages to instructors that broke the community rules.')
  await dialog.getByRole('button', { name: 'Suspend account' }).click()
  await expect(dialog).toHaveCount(0)
  await expect(part).toContainText('Suspended since')
  await expect(part).toContainText('“Messages to instructors that broke the community rules.”')
  await expect(part.getByTestId('customer-held-earnings')).toHaveText(
    /^Their earnings wait and are not paid out while it lasts: \$\d+\.\d{2}\.$/,
  )

  // Their browser holds a session that opens nothing now; their right password says why they cannot sign in.
  await theirs.goto(`${baseURL}/account`)
  await expect(theirs).toHaveURL(/\/login/)
  await theirs.getByLabel('Email', { exact: true }).fill(customer.email)
  await theirs.getByLabel('Password', { exact: true }).fill(customer.password)
  await theirs.getByRole('button', { name: 'Log In' }).click()
  // Said on the form (and in a toast).
  await expect(theirs.getByText('This account is suspended, so it cannot sign in.').first()).toBeVisible()

  await part.getByRole('button', { name: 'Lift suspension' }).click()
  await expect(part).toContainText('Active: they can sign in.')
  await theirs.getByRole('button', { name: 'Log In' }).click()
  await expect(theirs).not.toHaveURL(/\/login/)
  await theirs.close()
})

test('an editor writes a note on a customer’s page for the next agent, and deletes it', async ({
  page,
  db,
  baseURL,
}) => {
  const customer = await createUser(db, { email: `noted-${Date.now()}@example.test`, firstName: 'Nora' })
  await signInAs(page, baseURL!, db, await createUser(db, { role: 'editor' }))
  await page.goto('/admin/customers')
  const search = page.getByRole('search', { name: 'Find a customer' })
  await search.getByLabel('Customer e-mail').fill(customer.email)
  await search.getByLabel('Customer e-mail').press('Enter')
  const part = page.getByRole('region', { name: /^Notes/ })
  await expect(part.getByText('No notes yet.')).toBeVisible()
  // An editor does not suspend accounts or move addresses: those are an admin's.
  await expect(page.getByRole('button', { name: 'Suspend account' })).toHaveCount(0)

  const form = part.getByRole('form', { name: 'Add a note' })
  await form.getByRole('button', { name: 'Add note' }).click()
  await expect(form.getByText('Write the note first')).toBeVisible()
  await expect(form.getByLabel('New note')).toBeFocused()
  await form.getByLabel('New note').fill('Refund of the May order agreed on the phone.\nCall back on Friday.')
  await form.getByRole('button', { name: 'Add note' }).click()
  await expect(part.getByTestId('customer-note')).toContainText('Refund of the May order agreed on the phone.')
  await expect(page.getByRole('heading', { name: 'Notes (1)' })).toBeVisible()
  await expect(form.getByLabel('New note')).toHaveValue('')

  await part.getByRole('button', { name: /^Delete the note of/ }).click()
  await expect(part.getByText('No notes yet.')).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Notes (0)' })).toBeVisible()
})
