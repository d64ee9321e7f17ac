// The support /pricing promises (decision 0098), as a member and staff click it: a Pro member sees Priority email
// support on /contact and writes; staff read the support inbox by reply due time (an overdue message flagged first,
// the Pro message ahead of an older email-tier one), read it and mark it answered; an admin gives an Enterprise member a success manager, whom the
// member then sees on /contact on a 390 px phone.

import type { Page } from '@playwright/test'
import { contactMessage } from '../support/contact-messages.ts'
import { buyPlan } from '../support/creator-courses.ts'
import { createUser } from '../support/factories.ts'
import { expect, signInAs, test } from './fixtures.ts'

const HOUR = 3_600_000

test('a Pro member’s message comes first in the support inbox and is marked answered', async ({
  page,
  db,
  baseURL,
  login,
}) => {
  test.setTimeout(90_000)
  const stamp = Date.now()
  // An Email-tier message sent 8 hours ago: due in 40 hours, later than a Pro message sent now (24 hours).
  const olderSubject = `Older email question ${stamp}`
  await db
    .insertInto('contact_messages')
    .values({
      name: 'Early Visitor',
      email: 'early@example.test',
      subject: olderSubject,
      message: 'A question sent before the Pro member wrote.',
      created_at: new Date(stamp - 8 * HOUR),
      reply_due_at: new Date(stamp + 40 * HOUR),
    })
    .execute()
  // One whose reply is already late: flagged Overdue, and ahead of both.
  const overdueSubject = `Overdue question ${stamp}`
  await db
    .insertInto('contact_messages')
    .values({
      name: 'Late Visitor',
      email: 'late@example.test',
      subject: overdueSubject,
      message: 'Nobody has answered me for two days.',
      created_at: new Date(stamp - 50 * HOUR),
      reply_due_at: new Date(stamp - 2 * HOUR),
    })
    .execute()

  const member = await login({ firstName: 'Priya' })
  await buyPlan(db, member, 'pro')
  await page.goto('/contact')
  await expect(page.getByTestId('your-support')).toContainText(
    'Your support: Priority email (your Pro plan). We reply within 24 hours.',
  )
  const subject = `Pro member question ${stamp}`
  await page.getByLabel('Your Name').fill('Priya Member')
  await page.getByLabel('Email Address').fill(member.email)
  await page.getByLabel('Subject').fill(subject)
  await page.getByRole('textbox', { name: 'Message' }).fill('My course video will not finish processing.')
  await page.getByRole('checkbox').check()
  await page.getByRole('button', { name: 'Send Message' }).click()
  await expect(page.getByText("Message sent successfully! We'll get back to you soon.")).toBeVisible()

  const admin = await createUser(db, { role: 'admin' })
  await page.context().clearCookies()
  await signInAs(page, baseURL!, db, admin)
  await page.goto('/admin/support')
  await expect(page.getByRole('heading', { name: 'Support inbox' })).toBeVisible()
  // In order of reply due: the overdue message, the Pro one, then the older Email one (found by subject, as other
  // tests' messages share the inbox).
  const rows = page.getByTestId('support-row')
  const row = (text: string) => rows.filter({ hasText: text })
  await expect(row(subject)).toContainText('Priority email')
  await expect(row(olderSubject)).toContainText('Email')
  await expect(row(overdueSubject)).toContainText('Overdue')
  await expect(row(subject)).not.toContainText('Overdue')
  const order = await rows.allTextContents()
  const at = (text: string) => order.findIndex((line) => line.includes(text))
  expect([at(overdueSubject) < at(subject), at(subject) < at(olderSubject)]).toEqual([true, true])

  await row(subject)
    .getByRole('button', { name: `Read message from Priya Member: ${subject}` })
    .click()
  const dialog = page.getByRole('dialog', { name: subject })
  await expect(dialog.getByTestId('support-message')).toHaveText('My course video will not finish processing.')
  await dialog.getByRole('button', { name: 'Close' }).click()
  await expect(dialog).toBeHidden()

  await row(subject)
    .getByRole('button', { name: `Mark answered: ${subject}` })
    .click()
  await expect(page.getByText('Marked answered')).toBeVisible()
  await expect(page.getByTestId('support-row').filter({ hasText: subject })).toHaveCount(0)
  await page.getByLabel('Messages', { exact: true }).selectOption('answered')
  const answered = page.getByTestId('support-row').filter({ hasText: subject })
  await expect(answered).toContainText(`by ${admin.email}`)
  const stored = await db
    .selectFrom('contact_messages')
    .select(['support_tier', 'user_id', 'answered_by'])
    .where('subject', '=', subject)
    .executeTakeFirstOrThrow()
  expect(stored).toEqual({ support_tier: 'priority', user_id: member.id, answered_by: admin.id })
})

test('an admin gives an Enterprise member a success manager, whom the member sees on /contact', async ({
  page,
  db,
  baseURL,
}) => {
  test.setTimeout(90_000)
  const member = await createUser(db, { firstName: 'Ezra' })
  await buyPlan(db, member, 'enterprise')
  const pro = await createUser(db)
  await buyPlan(db, pro, 'pro')
  const manager = await createUser(db, { role: 'editor', firstName: 'Mona', lastName: 'Manager' })
  const admin = await createUser(db, { role: 'admin' })
  await signInAs(page, baseURL!, db, admin)
  await page.goto('/admin/support')
  const form = page.getByRole('form', { name: 'Assign a success manager' })
  const managerOption = `Mona Manager (${manager.email})`

  // A Pro member has no dedicated manager: the refusal says why and nothing is saved.
  await form.getByLabel('Enterprise member’s email').fill(pro.email)
  await form.getByLabel('Success manager').selectOption({ label: managerOption })
  await form.getByRole('button', { name: 'Assign manager' }).click()
  await expect(form.getByText('Only a member on the Enterprise plan has a dedicated success manager')).toBeVisible()
  await expect(page.getByTestId('manager-row').filter({ hasText: pro.email })).toHaveCount(0)

  await form.getByLabel('Enterprise member’s email').fill(member.email)
  await form.getByRole('button', { name: 'Assign manager' }).click()
  await expect(page.getByText('Success manager assigned')).toBeVisible()
  await expect(page.getByTestId('manager-row').filter({ hasText: member.email })).toContainText(manager.email)

  await page.context().clearCookies()
  await page.setViewportSize({ width: 390, height: 844 })
  await signInAs(page, baseURL!, db, member)
  await page.goto('/contact')
  const support = page.getByTestId('your-support')
  await expect(support).toContainText(
    'Your support: 24/7 dedicated (your Enterprise plan). We reply within 4 hours, day or night.',
  )
  await expect(support).toContainText(`Your success manager: Mona Manager (${manager.email}) receives your messages.`)
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
})

test('staff answer a message from the inbox: the sender is mailed and the message is answered', async ({
  page,
  db,
  baseURL,
}) => {
  test.setTimeout(90_000)
  const stamp = Date.now()
  const subject = `Answer me from the inbox ${stamp}`
  const sender = `ines-${stamp}@example.test`
  await db
    .insertInto('contact_messages')
    .values({
      name: 'Ines Visitor',
      email: sender,
      subject,
      message: 'Can my team of five share one plan?',
      reply_due_at: new Date(Date.now() + 48 * HOUR),
    })
    .execute()
  const editor = await createUser(db, { role: 'editor', firstName: 'Oskar' })
  await signInAs(page, baseURL!, db, editor)
  await page.goto('/admin/support')
  // Found by its sender: other specs' messages may fill the first page.
  await findSender(page, sender)
  const row = page.getByTestId('support-row').filter({ hasText: subject })
  await row.getByRole('button', { name: `Read message from Ines Visitor: ${subject}` }).click()
  const dialog = page.getByRole('dialog', { name: subject })
  await expect(dialog.getByText('No answer sent from here yet.')).toBeVisible()
  const box = dialog.getByLabel('Your answer (mailed to the sender)')
  // Enter is a new line in an e-mail answer, not a send.
  await box.fill('Yes: the Enterprise plan covers a team.')
  await box.press('End')
  await box.press('Enter')
  await box.pressSequentially('Team members are added from your school page.')
  await expect(dialog.getByTestId('support-answer')).toHaveCount(0)
  await dialog.getByRole('button', { name: 'Send answer' }).click()
  // Saved and queued, not "sent": the answer's own line says where its mail stands (no SMTP here: printed).
  await expect(page.getByText('Answer saved and queued for sending')).toBeVisible()
  await expect(dialog.getByTestId('support-answer')).toContainText(`Answer by ${editor.email}`)
  await expect(dialog.getByTestId('support-answer-delivery')).toHaveText(
    /^Mail to the sender: (Queued|Printed \(no SMTP\))$/,
  )
  await expect(box).toHaveValue('')
  await dialog.getByRole('button', { name: 'Close' }).click()
  await expect(page.getByTestId('support-row').filter({ hasText: subject })).toHaveCount(0)

  const mail = await db
    .selectFrom('mail_outbox')
    .select(['subject', 'text_body'])
    .where('to_address', '=', sender)
    .where('kind', '=', 'contact-reply')
    .executeTakeFirstOrThrow()
  expect(mail.subject).toBe(`Re: ${subject}`)
  expect(mail.text_body).toContain(
    'Yes: the Enterprise plan covers a team.\nTeam members are added from your school page.\n\nOskar, SkillForge support',
  )
})

test('staff find one sender’s messages by their address, open and answered; the address never goes in a URL', async ({
  page,
  db,
  baseURL,
}) => {
  const stamp = Date.now()
  const sender = `Find.Me-${stamp}@Example.test`
  await contactMessage(db, sender, `First question ${stamp}`)
  await contactMessage(db, sender.toLowerCase(), `Second question ${stamp}`)
  await contactMessage(db, sender, `Answered question ${stamp}`, { answered: true })
  await contactMessage(db, `someone-else-${sender}`, `Not hers ${stamp}`)
  const viewer = await createUser(db, { role: 'viewer' })
  await signInAs(page, baseURL!, db, viewer)
  const urls: string[] = []
  page.on('request', (request) => urls.push(decodeURIComponent(request.url()).toLowerCase()))
  await page.goto('/admin/support')
  const search = page.getByRole('search', { name: 'Find one person’s messages' })
  const field = search.getByLabel('Sender’s e-mail')

  await field.fill(`find.me-${stamp}`)
  await field.press('Enter')
  await expect(search.getByText('Enter a whole e-mail address, such as name@example.com')).toBeVisible()
  await expect(field).toBeFocused()

  await findSender(page, sender.toUpperCase())
  const rows = page.getByTestId('support-row')
  await expect(rows).toHaveCount(2)
  await expect(rows.filter({ hasText: `First question ${stamp}` })).toHaveCount(1)
  await expect(rows.filter({ hasText: `Second question ${stamp}` })).toHaveCount(1)

  // The status filter keeps the search: her answered message.
  await page.getByLabel('Messages', { exact: true }).selectOption('answered')
  await expect(rows).toHaveCount(1)
  await expect(rows).toContainText(`Answered question ${stamp}`)

  await findSender(page, `nobody-${stamp}@example.test`)
  await expect(page.getByText(`No answered messages from nobody-${stamp}@example.test`)).toBeVisible()
  await search.getByRole('button', { name: 'Show all' }).click()
  await expect(field).toHaveValue('')
  await expect(rows.first()).toBeVisible()
  expect(urls.filter((url) => url.includes(`-${stamp}@example.test`))).toEqual([])
})

/** The inbox's Find, by a sender's address. */
async function findSender(page: Page, address: string) {
  const search = page.getByRole('search', { name: 'Find one person’s messages' })
  await search.getByLabel('Sender’s e-mail').fill(address)
  await search.getByRole('button', { name: 'Find', exact: true }).click()
  await expect(search.getByRole('button', { name: 'Show all' })).toBeVisible()
}
