// Controls with a busy flag of their own (a form's send, the log-in) stay where the keyboard is while their request
// runs: aria-disabled (whilePending / submitWhilePending), not disabled, which would drop the focus to the page. Each
// request is held back a moment so the check sees the control while it runs; Enter pressed again meanwhile sends
// nothing more.
import { createCreator, createCreatorCourse } from '../support/creator-courses.ts'
import { createUser } from '../support/factories.ts'
import { verifiedLearner } from '../support/learners.ts'
import { premiumMember } from '../support/learning.ts'
import { paidServiceOrder } from '../support/service-orders.ts'
import { expect, signInAs, test } from './fixtures.ts'
import { holdUntilReleased, pressWhileBusy, slow } from './hold-request.ts'

test('with the keyboard, Publish review keeps focus while the review is published, and publishes it once', async ({
  page,
  db,
  baseURL,
}) => {
  const creator = await createCreator(db)
  const course = await createCreatorCourse(db, creator, { status: 'published' })
  const learner = await verifiedLearner(db, course.id)
  await signInAs(page, baseURL as string, db, learner)
  await page.goto(`/courses/${course.id}`)
  await page.getByRole('radio', { name: '1 star', exact: true }).focus()
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight')
  await expect(page.getByRole('radio', { name: '4 stars' })).toBeChecked()
  await slow(page, 'reviews.create', 3000)
  const publish = page.getByRole('button', { name: /Publish review|Saving/ })
  await pressWhileBusy(page, publish, { twice: true })
  await expect(page.getByText('Thank you! Your review is published.')).toBeVisible()
  const reviews = await db.selectFrom('course_reviews').select('rating').where('course_id', '=', course.id).execute()
  expect(reviews).toEqual([{ rating: 4 }])
})

test('with the keyboard, Log In keeps focus while the password is checked', async ({ page, db }) => {
  const user = await createUser(db)
  await page.goto('/login')
  await page.getByLabel('Email', { exact: true }).fill(user.email)
  await page.getByLabel('Password', { exact: true }).fill(user.password)
  await slow(page, 'auth.login')
  const logIn = page.getByRole('button', { name: /^Log In$|Logging in/ })
  await pressWhileBusy(page, logIn)
  await expect(page).toHaveURL('/')
  await expect(page.getByRole('link', { name: 'Log In' })).toHaveCount(0)
})

test('with the keyboard, a service order’s Send message keeps focus while the message is sent, and sends it once', async ({
  page,
  db,
  login,
}) => {
  const buyer = await login()
  const id = await paidServiceOrder(db, buyer.id)
  await page.goto(`/account/services/${id}`)
  const box = page.getByRole('textbox', { name: 'Message', exact: true })
  await box.fill('Is the name still available?')
  await slow(page, 'serviceOrders.sendMessage', 3000)
  const send = page.getByRole('button', { name: /Send message|Sending/ })
  await pressWhileBusy(page, send, { twice: true })
  await expect(page.getByTestId('thread')).toContainText('Is the name still available?')
  // Sent, the message box takes the focus back for the next message.
  await expect(box).toBeFocused()
  await expect(box).toHaveValue('')
  const messages = await db
    .selectFrom('service_order_messages')
    .select('body')
    .where('service_order_id', '=', id)
    .execute()
  expect(messages).toEqual([{ body: 'Is the name still available?' }])
})

test('a double-click on Send message sends the message once (the second click comes before the page shows it busy)', async ({
  page,
  db,
  login,
}) => {
  const buyer = await login()
  const id = await paidServiceOrder(db, buyer.id)
  await page.goto(`/account/services/${id}`)
  await page.getByRole('textbox', { name: 'Message', exact: true }).fill('Sent by a double-click')
  await page.getByRole('button', { name: 'Send message' }).dblclick()
  await expect(page.getByTestId('thread')).toContainText('Sent by a double-click')
  const messages = await db
    .selectFrom('service_order_messages')
    .select('body')
    .where('service_order_id', '=', id)
    .execute()
  expect(messages).toEqual([{ body: 'Sent by a double-click' }])
})

test('with the keyboard, Send message to an instructor keeps focus while the message is sent', async ({
  page,
  db,
  baseURL,
}) => {
  const course = 'sql-for-analysts'
  const instructor = await createUser(db)
  await db
    .insertInto('course_instructors')
    .values({ course_id: course, user_id: instructor.id, role: 'co' })
    .onConflict((oc) => oc.doNothing())
    .execute()
  const { user } = await premiumMember(db)
  await signInAs(page, baseURL as string, db, user)
  await page.goto(`/account/messages/${course}`)
  const composer = page.getByRole('form', { name: 'Write to the instructor' })
  await composer.getByLabel('Your message').fill('Which database does lesson 3 use?')
  await slow(page, 'instructorMessages.send')
  const send = composer.getByRole('button', { name: /Send message|Sending/ })
  await pressWhileBusy(page, send)
  await expect(page.getByTestId('message')).toContainText('Which database does lesson 3 use?')
  await expect(composer.getByLabel('Your message')).toBeFocused()
})

test('with the keyboard, a service order’s assignee select keeps focus while the assignee is saved', async ({
  page,
  login,
  db,
}) => {
  await login({ role: 'admin' })
  const id = await paidServiceOrder(db, (await createUser(db)).id)
  await page.goto(`/admin/service-orders/${id}`)
  const assignee = page.getByRole('combobox', { name: 'Assignee' })
  const held = await holdUntilReleased(page, 'admin.serviceOrders.assign')
  await assignee.focus()
  await page.keyboard.press('ArrowDown')
  const chosen = await assignee.inputValue()
  expect(chosen).not.toBe('')
  await page.keyboard.press('Enter')
  await held.reached
  await expect(assignee).toHaveAttribute('aria-disabled', 'true')
  await expect(assignee).not.toHaveAttribute('disabled')
  await expect(assignee).toBeFocused()
  // Another pick while the first is saved is not taken.
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('Enter')
  held.release()
  await expect(page.getByText('Assignee updated')).toBeVisible()
  await expect(assignee).not.toHaveAttribute('aria-disabled')
  await expect(assignee).toHaveValue(chosen)
  await expect(assignee).toBeFocused()
  const saved = await db
    .selectFrom('service_orders')
    .select('assignee_id')
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
  expect(saved.assignee_id).toBe(chosen)
})

test('with the keyboard, Sign Out stays in the menu while signing out, and a second select sends nothing', async ({
  page,
  login,
}) => {
  await login()
  await page.goto('/')
  let requests = 0
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.includes('auth.logout')) requests += 1
  })
  const held = await holdUntilReleased(page, 'auth.logout')
  const menu = page.getByTestId('user-menu')
  await menu.focus()
  await page.keyboard.press('Enter')
  const signOut = page.getByRole('menuitem', { name: 'Sign Out' })
  await expect(page.getByRole('menu')).toBeFocused()
  await page.keyboard.press('End')
  await expect(signOut).toHaveAttribute('data-highlighted', '')
  await page.keyboard.press('Enter')
  await held.reached
  // The menu closes on the choice; opened again while signing out, Sign Out is still reachable (the arrow keys and End
  // highlight it; the menu keeps the focus), marked busy.
  await expect(signOut).toBeHidden()
  await menu.focus()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('menu')).toBeFocused()
  await page.keyboard.press('End')
  await expect(signOut).toHaveAttribute('data-highlighted', '')
  await expect(signOut).toHaveAttribute('aria-disabled', 'true')
  await page.keyboard.press('Enter')
  held.release()
  await expect(page).toHaveURL('/login')
  expect(requests).toBe(1)
})
