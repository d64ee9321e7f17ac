// Pages used before their JavaScript arrives (issue 27): with JavaScript off, and with the page's scripts held back,
// sign-up, log-in, forgot password and contact work as native posts (never a GET carrying the fields); what is
// typed before hydration survives it; a button pressed early is held, said to be loading, and then goes through;
// token pages take the token out of the address bar.
import type { Page, Request } from '@playwright/test'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/types.ts'
import { hashPassword } from '../../src-server/auth/password.ts'
import { hashToken, issueEmailChangeToken, issueSignupToken, issueToken } from '../../src-server/auth/tokens.ts'
import { AUTH_MESSAGES } from '../../src-shared/auth.ts'
import { createCreator, createCreatorCourse } from '../support/creator-courses.ts'
import { ownedCourse } from '../support/earnings.ts'
import { createUser } from '../support/factories.ts'
import { verifiedLearner } from '../support/learners.ts'
import { mailsTo } from '../support/outbox.ts'
import { expect, signInAs, test } from './fixtures.ts'

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`
const PASSWORD = 'Str0ng!Passw0rd#1'

/** Every request URL the page sends, to show no password or typed field ever travels in one. */
function recordUrls(page: Page): string[] {
  const urls: string[] = []
  page.on('request', (request: Request) => urls.push(request.url()))
  return urls
}

/** Opens a page without the fixture's wait for hydration (Frame.goto is not wrapped). */
async function open(page: Page, path: string) {
  await page.mainFrame().goto(path, { waitUntil: 'domcontentloaded' })
}

/** Holds the app's scripts back until `release()`: the page shows, server-rendered, and stays inert until then. */
async function holdScripts(page: Page) {
  let release!: () => void
  const released = new Promise<void>((resolve) => {
    release = resolve
  })
  await page.route(/\/assets\/.+\.js$/, async (route) => {
    await released
    await route.continue()
  })
  return { release: () => release() }
}

const isHydrated = (page: Page) => page.evaluate(() => document.documentElement.dataset.hydrated === 'true')

test.describe('with JavaScript off', () => {
  test.use({ javaScriptEnabled: false })

  test('sign-up shows its field errors, keeps what was typed but the password, then creates the account', async ({
    page,
    db,
  }) => {
    const urls = recordUrls(page)
    const email = `nojs-${unique()}@example.com`
    await page.goto('/signup')
    await page.getByLabel('First name').fill('Ada')
    await page.getByLabel('Last name').fill('Lovelace')
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password').fill('short')
    await page.getByRole('button', { name: 'Create Account' }).click()

    await expect(page.getByText('You must agree to the terms and conditions')).toBeVisible()
    await expect(page.getByLabel('First name')).toHaveValue('Ada')
    await expect(page.getByLabel('Email')).toHaveValue(email)
    await expect(page.getByLabel('Password')).toHaveValue('')
    expect(await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()).toBeUndefined()

    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByLabel('I agree to the').check()
    await page.getByRole('button', { name: 'Create Account' }).click()
    await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible()
    await expect(page.getByText('Account created successfully!')).toBeVisible()
    expect(await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()).toBeDefined()
    expect(urls.filter((url) => url.includes('Passw0rd') || url.includes('firstName'))).toEqual([])
  })

  test('log-in refuses a wrong password with the address kept, then signs in and goes where it was asked', async ({
    page,
    db,
  }) => {
    const urls = recordUrls(page)
    const user = await createUser(db, { password: PASSWORD })
    await page.goto('/login?redirect=%2Fpricing')
    await page.getByLabel('Email').fill(user.email)
    await page.getByLabel('Password').fill('wrong-password-1!')
    await page.getByRole('button', { name: 'Log In' }).click()
    await expect(page.getByRole('alert').filter({ hasText: 'Invalid email or password' })).toBeVisible()
    await expect(page.getByLabel('Email')).toHaveValue(user.email)
    await expect(page.getByLabel('Password')).toHaveValue('')

    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Log In' }).click()
    await expect(page).toHaveURL(/\/pricing$/)
    expect((await page.context().cookies()).some((cookie) => cookie.name === 'session')).toBe(true)
    expect(urls.filter((url) => url.includes(PASSWORD) || url.includes('wrong-password'))).toEqual([])
  })

  test('the link mailed to a new address moves the account with a button (decision 0157)', async ({ page, db }) => {
    const urls = recordUrls(page)
    const user = await createUser(db, { password: PASSWORD })
    const newAddress = `nojs-moved-${unique()}@example.com`
    const token = await issueEmailChangeToken(db, user.id, newAddress)
    await page.goto(`/change-email?token=${token}`)
    await page.getByRole('button', { name: 'Use this address' }).click()
    await expect(page.getByText(`Your account’s e-mail address is now ${newAddress}.`)).toBeVisible()
    expect(urls.filter((url) => url.includes(token)).length, 'the token only in the mailed link').toBe(1)
    const row = await db.selectFrom('users').select('email').where('id', '=', user.id).executeTakeFirstOrThrow()
    expect(row.email).toBe(newAddress)

    await page.goto(`/change-email?token=${token}`)
    await page.getByRole('button', { name: 'Use this address' }).click()
    await expect(page.getByRole('alert').filter({ hasText: 'This link does not work any more' })).toBeVisible()
  })

  test('the e-mailed verification link verifies the address with a button, and the account then logs in', async ({
    page,
    db,
  }) => {
    const urls = recordUrls(page)
    const user = await createUser(db, { password: PASSWORD, emailVerified: false })
    const token = await issueToken(db, user.id, 'verify_email')
    await page.goto(`/verify-email?token=${token}`)
    await page.getByRole('button', { name: 'Verify my email' }).click()
    await expect(page.getByText('Your email has been verified. You can now log in.')).toBeVisible()
    expect(urls.filter((url) => url.includes(token)).length, 'the token only in the mailed link').toBe(1)
    const row = await db.selectFrom('users').select('email_verified').where('id', '=', user.id).executeTakeFirst()
    expect(row?.email_verified).toBe(true)

    // The link again: already used, and said so.
    await page.goto(`/verify-email?token=${token}`)
    await page.getByRole('button', { name: 'Verify my email' }).click()
    await expect(
      page.getByRole('alert').filter({ hasText: 'This verification link is invalid or has expired.' }),
    ).toBeVisible()

    await page.goto('/login')
    await page.getByLabel('Email').fill(user.email)
    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Log In' }).click()
    await expect(page).toHaveURL(/\/$/)
    expect((await page.context().cookies()).some((cookie) => cookie.name === 'session')).toBe(true)
  })

  // Decision 0134: a sign-up's link opened in another browser than the sign-up's asks for the password chosen then.
  test('a sign-up’s link opened in another browser asks for the sign-up’s password, then verifies', async ({
    page,
    db,
  }) => {
    const urls = recordUrls(page)
    const user = await createUser(db, { emailVerified: false })
    const token = await issueSignupToken(db, user.id, {
      passwordHash: await hashPassword(PASSWORD),
      firstName: 'Sam',
      lastName: 'Signup',
      browserHash: hashToken('the-browser-that-signed-up-is-not-this-one'),
    })
    await page.goto(`/verify-email?token=${token}`)
    await page.getByRole('button', { name: 'Verify my email' }).click()
    await expect(page.getByText(AUTH_MESSAGES.signupPasswordNeeded)).toBeVisible()
    await expect(page.getByRole('link', { name: 'Reset your password' })).toHaveAttribute('href', '/forgot-password')
    await page.getByLabel('Password', { exact: true }).fill('not-what-was-chosen')
    await page.getByRole('button', { name: 'Confirm my email' }).click()
    await expect(page.getByRole('alert').filter({ hasText: AUTH_MESSAGES.signupPasswordWrong })).toBeVisible()
    // The typed password is never sent back into the page.
    await expect(page.getByLabel('Password', { exact: true })).toHaveValue('')
    const row = () => db.selectFrom('users').select(['email_verified', 'first_name']).where('id', '=', user.id)
    expect(await row().executeTakeFirst()).toMatchObject({ email_verified: false })

    await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
    await page.getByRole('button', { name: 'Confirm my email' }).click()
    await expect(page.getByText('Your email has been verified. You can now log in.')).toBeVisible()
    expect(await row().executeTakeFirst()).toEqual({ email_verified: true, first_name: 'Sam' })
    expect(urls.filter((url) => url.includes(token)).length, 'the token only in the mailed link').toBe(1)
  })

  test('an unverified account asks for a new link from the log-in refusal and from a used link’s page', async ({
    page,
    db,
  }) => {
    const urls = recordUrls(page)
    const user = await createUser(db, { password: PASSWORD, emailVerified: false })
    const sent = async () => (await mailsTo(db, user.email)).filter((mail) => mail.kind === 'verify_email').length
    await page.goto('/login')
    await page.getByLabel('Email').fill(user.email)
    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Log In' }).click()
    await expect(page.getByRole('alert').filter({ hasText: 'Please verify your email' })).toBeVisible()
    await page.getByRole('button', { name: 'Resend verification e-mail' }).click()
    await expect(page.getByRole('status').filter({ hasText: AUTH_MESSAGES.verificationResent })).toBeVisible()
    expect(await sent()).toBe(1)

    // A used or expired link's page asks for the address; a bad one is told under its field, the address kept.
    await page.goto('/verify-email')
    // (one the browser's own check lets through: no dot in the domain)
    await page.getByLabel('Email').fill('nobody@localhost')
    await page.getByRole('button', { name: 'Resend verification e-mail' }).click()
    await expect(page.getByLabel('Email')).toHaveAccessibleDescription('Please enter a valid email address')
    await expect(page.getByLabel('Email')).toHaveValue('nobody@localhost')
    await expect(page.getByText(AUTH_MESSAGES.badVerifyLink)).toHaveCount(0)
    await page.getByLabel('Email').fill(user.email)
    await page.getByRole('button', { name: 'Resend verification e-mail' }).click()
    await expect(page.getByRole('status').filter({ hasText: AUTH_MESSAGES.verificationResent })).toBeVisible()
    expect(await sent()).toBe(2)
    expect(urls.filter((url) => url.includes(encodeURIComponent(user.email)) || url.includes(PASSWORD))).toEqual([])
  })

  test('forgot password answers the same whether or not the address has an account', async ({ page }) => {
    await page.goto('/forgot-password')
    await page.getByLabel('Email').fill(`nobody-${unique()}@example.com`)
    await page.getByRole('button', { name: 'Send Reset Link' }).click()
    await expect(page.getByText('If an account exists for that email')).toBeVisible()
  })

  test('the contact form shows its errors with the text kept, then sends the message', async ({ page, db }) => {
    const urls = recordUrls(page)
    const subject = `No script ${unique()}`
    await page.goto('/contact')
    const form = page.getByRole('form', { name: 'Send us a message' })
    await form.getByLabel('Your Name').fill('Grace Hopper')
    await form.getByLabel('Email Address').fill('grace@example.com')
    await form.getByLabel('Subject').fill(subject)
    await form.getByLabel('Message').fill('short')
    await form.getByRole('button', { name: 'Send Message' }).click()
    await expect(form.getByText('Message must be at least 10 characters.')).toBeVisible()
    await expect(form.getByText('You must agree to our terms and privacy policy.')).toBeVisible()
    await expect(form.getByLabel('Your Name')).toHaveValue('Grace Hopper')
    await expect(form.getByLabel('Subject')).toHaveValue(subject)

    await form.getByLabel('Message').fill('A question about company formation in the UK.')
    await form.getByRole('checkbox').check()
    await form.getByRole('button', { name: 'Send Message' }).click()
    await expect(page.getByText("Message sent successfully! We'll get back to you soon.")).toBeVisible()
    const stored = await db.selectFrom('contact_messages').select('name').where('subject', '=', subject).execute()
    expect(stored).toEqual([{ name: 'Grace Hopper' }])
    expect(urls.filter((url) => url.includes('Grace') || url.includes('grace%40'))).toEqual([])
  })
})

test.describe('before the scripts arrive', () => {
  test('a sign-up sent before hydration is posted, never put in the address', async ({ page, db }) => {
    const urls = recordUrls(page)
    const scripts = await holdScripts(page)
    const email = `early-${unique()}@example.com`
    await open(page, '/signup')
    await page.getByLabel('First name').fill('Ada')
    await page.getByLabel('Last name').fill('Lovelace')
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByLabel('I agree to the').check()
    expect(await isHydrated(page)).toBe(false)
    await page.getByRole('button', { name: 'Create Account' }).click()
    await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible()
    scripts.release()
    expect(await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()).toBeDefined()
    expect(urls.filter((url) => url.includes('Passw0rd') || url.includes('Lovelace'))).toEqual([])
  })

  test('what is typed before hydration stays after it, and the form then sends it', async ({ page, db }) => {
    const scripts = await holdScripts(page)
    const subject = `Typed early ${unique()}`
    await open(page, '/contact')
    const form = page.getByRole('form', { name: 'Send us a message' })
    await form.getByLabel('Your Name').fill('Grace Hopper')
    await form.getByLabel('Email Address').fill('grace@example.com')
    expect(await isHydrated(page)).toBe(false)
    scripts.release()
    await expect.poll(() => isHydrated(page)).toBe(true)
    // Typing in another field re-renders the form: the early values must not be reset to empty.
    await form.getByLabel('Subject').fill(subject)
    await form.getByLabel('Message').fill('Typed before the page was interactive.')
    await expect(form.getByLabel('Your Name')).toHaveValue('Grace Hopper')
    await expect(form.getByLabel('Email Address')).toHaveValue('grace@example.com')
    await form.getByRole('checkbox').check()
    await form.getByRole('button', { name: 'Send Message' }).click()
    await expect(page.getByText("Message sent successfully! We'll get back to you soon.").first()).toBeVisible()
    await expect
      .poll(
        async () =>
          (await db.selectFrom('contact_messages').select('email').where('subject', '=', subject).execute()).length,
      )
      .toBe(1)
  })

  test('Add to Cart pressed before hydration says the page is loading, then adds the course', async ({
    page,
    db,
    login,
  }) => {
    await login()
    const course = await db
      .selectFrom('courses')
      .select(['id', 'title'])
      .where('status', '=', 'published')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow()
    const scripts = await holdScripts(page)
    await open(page, `/courses/${course.id}`)
    const purchase = page.getByRole('complementary', { name: 'Purchase' })
    await purchase.getByRole('button', { name: 'Add to Cart' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'the page is still loading' })).toBeVisible()
    expect(await isHydrated(page)).toBe(false)
    scripts.release()
    await expect(purchase.getByRole('button', { name: 'Added to Cart' })).toBeDisabled()
    await expect(page.getByTestId('cart-count')).toHaveText('1')
    await expect(page.getByRole('status').filter({ hasText: 'the page is still loading' })).toHaveCount(0)
  })
})

test.describe('a choice made before the scripts arrive', () => {
  /** A published course of its own, priced in USD and GBP (decision 0069): its page offers "Pay in". */
  async function twoCurrencyCourse(db: Kysely<Database>) {
    const course = await ownedCourse(db, (await createUser(db)).id, 3000, `Early choice ${unique()}`)
    await db
      .updateTable('courses')
      .set({ price_usd_minor: 3000, price_gbp_minor: 2450 })
      .where('id', '=', course.id)
      .execute()
    return course
  }

  test('"Pay in: Pounds" chosen and Add to Cart pressed before hydration put the course in the cart in GBP', async ({
    page,
    db,
    login,
  }) => {
    const buyer = await login()
    const course = await twoCurrencyCourse(db)
    const scripts = await holdScripts(page)
    await open(page, `/courses/${course.id}`)
    const purchase = page.getByRole('complementary', { name: 'Purchase' })
    await purchase.getByLabel('Pay in').selectOption('GBP')
    await purchase.getByRole('button', { name: 'Add to Cart' }).click()
    expect(await isHydrated(page)).toBe(false)
    scripts.release()
    await expect(purchase.getByRole('button', { name: 'Added to Cart' })).toBeDisabled()
    // The choice survived hydration: the select, the price shown and the cart line all say pounds.
    await expect(purchase.getByLabel('Pay in')).toHaveValue('GBP')
    await expect(purchase.getByTestId('course-price')).toHaveText('£24.50')
    await expect
      .poll(() =>
        db
          .selectFrom('cart_items')
          .select('currency')
          .where('user_id', '=', buyer.id)
          .where('course_id', '=', course.id)
          .execute(),
      )
      .toEqual([{ currency: 'GBP' }])
  })

  test('a catalogue filter chosen before hydration is applied once the page is ready', async ({ page }) => {
    const scripts = await holdScripts(page)
    await open(page, '/courses')
    const filters = page.getByRole('complementary', { name: 'More filters' })
    await filters.getByRole('radio', { name: /^4 & up/ }).check()
    expect(await isHydrated(page)).toBe(false)
    scripts.release()
    await expect(page).toHaveURL(/[?&]rating=4(&|$)/)
    await expect(filters.getByRole('radio', { name: /^4 & up/ })).toBeChecked()
  })

  test('a category chosen while the catalogue hydrates is applied, not undone by its own change event', async ({
    page,
  }) => {
    // React hydrates the page's shell (header, footer) before the route's content: a choice made between the two sends
    // its `input` to a select not hydrated yet, which React then hydrates at once, and its `change` follows, as a browser
    // sends them. Polled task by task (a MessageChannel loop, on a CPU slowed down 4×), the choice lands in that moment.
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 })
    await page.addInitScript(() => {
      const probe = window as { chosenWhileHydrating?: boolean }
      const hydrated = (element: Element | null | undefined) =>
        element ? Object.keys(element).some((key) => key.startsWith('__reactProps$')) : false
      const channel = new MessageChannel()
      channel.port1.onmessage = () => {
        const label = Array.from(document.querySelectorAll('label')).find((l) => l.textContent?.startsWith('Category'))
        const select = label?.control as HTMLSelectElement | null | undefined
        if (!select || !hydrated(document.querySelector('header a'))) return channel.port2.postMessage(null)
        probe.chosenWhileHydrating = !hydrated(select)
        select.value = 'development'
        select.dispatchEvent(new Event('input', { bubbles: true }))
        select.dispatchEvent(new Event('change', { bubbles: true }))
      }
      channel.port2.postMessage(null)
    })
    await open(page, '/courses')
    await expect
      .poll(() => page.evaluate(() => (window as { chosenWhileHydrating?: boolean }).chosenWhileHydrating))
      .toBe(true)
    await expect(page).toHaveURL(/[?&]category=development(&|$)/)
    await expect(page.getByLabel('Category')).toHaveValue('development')
  })

  test('a review’s stars and text given before hydration are the ones published', async ({ page, db, baseURL }) => {
    const course = await createCreatorCourse(db, await createCreator(db), { status: 'published' })
    const learner = await verifiedLearner(db, course.id)
    await signInAs(page, baseURL as string, db, learner)
    const scripts = await holdScripts(page)
    await open(page, `/courses/${course.id}`)
    const text = 'Written while the page was still loading.'
    // A visitor clicks the star drawn over the radio, i.e. its label.
    await page.locator('label', { has: page.getByRole('radio', { name: '4 stars' }) }).click()
    await page.getByLabel('Your review (optional)').fill(text)
    expect(await isHydrated(page)).toBe(false)
    scripts.release()
    await expect.poll(() => isHydrated(page)).toBe(true)
    // Hydrated, the form shows what was given, and its character count knows the text.
    await expect(page.getByRole('radio', { name: '4 stars' })).toBeChecked()
    await expect(page.getByText(`${text.length} / `)).toBeVisible()
    await page.getByRole('button', { name: 'Publish review' }).click()
    await expect(page.getByText('Thank you! Your review is published.')).toBeVisible()
    const reviews = await db
      .selectFrom('course_reviews')
      .select(['rating', 'body'])
      .where('course_id', '=', course.id)
      .execute()
    expect(reviews).toEqual([{ rating: 4, body: text }])
  })

  test('the gift form keeps "Pay in: Pounds" and Bank Transfer chosen before hydration, and the order is so', async ({
    page,
    db,
    login,
  }) => {
    const buyer = await login()
    const course = await twoCurrencyCourse(db)
    const scripts = await holdScripts(page)
    await open(page, `/gifts/new?course=${encodeURIComponent(course.id)}`)
    await page.getByLabel('Pay in').selectOption('GBP')
    await page.getByRole('radio', { name: /Bank Transfer/ }).check()
    expect(await isHydrated(page)).toBe(false)
    scripts.release()
    await expect.poll(() => isHydrated(page)).toBe(true)
    await expect(page.getByText('£24.50', { exact: true })).toBeVisible()
    // Another field's input re-renders the form: the early choices must not be put back to dollars and card.
    await page.getByLabel("Recipient's email").fill(`early-${unique()}@example.com`)
    await expect(page.getByLabel('Pay in')).toHaveValue('GBP')
    await expect(page.getByRole('radio', { name: /Bank Transfer/ })).toBeChecked()
    await page.getByRole('button', { name: 'Pay for Gift' }).click()
    await expect(page.getByRole('dialog', { name: 'Bank Transfer Details' })).toBeVisible()
    const gift = await db
      .selectFrom('orders')
      .select(['currency', 'total_minor', 'method'])
      .where('user_id', '=', buyer.id)
      .where('source', '=', 'gift')
      .executeTakeFirstOrThrow()
    expect(gift).toEqual({ currency: 'GBP', total_minor: 2450, method: 'bank_transfer' })
  })
})

test("a visitor's live chat started before hydration keeps what was typed and starts once the page is ready", async ({
  page,
  db,
}) => {
  const email = `early-chat-${unique()}@example.com`
  const scripts = await holdScripts(page)
  await open(page, '/contact')
  const start = page.getByTestId('live-chat').getByRole('form', { name: 'Start a chat' })
  await start.getByLabel('Name').fill('Early Visitor')
  await start.getByLabel('Email').fill(email)
  await start.getByLabel('Your question').fill('Typed before the page was ready')
  await start.getByRole('button', { name: 'Start chat' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'the page is still loading' })).toBeVisible()
  expect(await isHydrated(page)).toBe(false)
  scripts.release()
  await expect(page.getByTestId('chat-status')).toHaveText('Waiting for a member of our team to join…')
  const chats = await db
    .selectFrom('chat_conversations as c')
    .innerJoin('chat_messages as m', 'm.conversation_id', 'c.id')
    .select(['c.visitor_name', 'm.body'])
    .where('c.visitor_email', '=', email)
    .execute()
  expect(chats).toEqual([{ visitor_name: 'Early Visitor', body: 'Typed before the page was ready' }])
})

test('a reset link is taken out of the address bar, and its form still resets the password', async ({ page, db }) => {
  const user = await createUser(db, { password: PASSWORD })
  // The token as the mailed link carries it (issued directly: password resets are limited to 5 per address
  // in 15 minutes, and accounts.spec.ts spends three of them through the forms).
  const token = await issueToken(db, user.id, 'reset_password')
  await page.goto(`/reset-password?token=${token}`)
  await expect(page).toHaveURL(/\/reset-password$/)
  expect(await page.evaluate(() => window.location.search)).toBe('')
  await page.getByLabel('New password', { exact: true }).fill('N3w!passphrase')
  await page.getByLabel('Confirm new password').fill('N3w!passphrase')
  await page.getByRole('button', { name: 'Reset Password' }).click()
  await expect(page).toHaveURL(/\/login$/)
})

test.describe('the staff log-in with JavaScript off', () => {
  test.use({ javaScriptEnabled: false })

  test('refuses a wrong password with the address kept, then signs staff in to the dashboard', async ({ page, db }) => {
    const urls = recordUrls(page)
    const editor = await createUser(db, { role: 'editor', password: PASSWORD })
    await page.goto('/admin/login')
    await page.getByLabel('Email').fill(editor.email)
    await page.getByLabel('Password').fill('wrong-password-1!')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect(page.getByRole('alert')).toHaveText('Invalid email or password. Please try again.')
    await expect(page.getByLabel('Email')).toHaveValue(editor.email)

    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect(page).toHaveURL(/\/admin$/)
    expect((await page.context().cookies()).some((cookie) => cookie.name === 'session')).toBe(true)
    expect(urls.filter((url) => url.includes(PASSWORD) || url.includes('wrong-password'))).toEqual([])
  })
})
