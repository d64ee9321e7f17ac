// A school's own domain and brand (issue 36, decision 0063): the Enterprise owner adds a domain on /studio/domain and
// sees the TXT record to create, saves a brand; once the domain is verified (the TXT check itself runs against a
// local DNS server in tests/integration/creators/school-domain.test.ts), the school's pages answer on that Host with
// its brand and no SkillForge in sight. A learner there finds the school's courses in My courses, its sessions on
// /live and its conversations in Messages, pays there for its courses only, and another course's player and
// certificate open on the marketplace (decision 0150). Chromium maps the domain to this machine
// (--host-resolver-rules).
import { randomBytes } from 'node:crypto'
import { get as httpGet } from 'node:http'
import { createSession, SESSION_COOKIE } from '../../src-server/auth/session.ts'
import { ensureSchool } from '../../src-server/creators/schools.ts'
import { e2eChromiumPath, HEADLESS_CHROMIUM_ARGS } from '../support/chromium.ts'
import { createCreator, createCreatorCourse } from '../support/creator-courses.ts'
import { createUser } from '../support/factories.ts'
import { buyerOfCourse } from '../support/learning.ts'
import { liveSessionRow } from '../support/live.ts'
import { axeViolations } from './a11y.ts'
import { expect, signInAs, test } from './fixtures.ts'

test.use({
  launchOptions: {
    // The project's own (playwright.config.ts), plus the school domains mapped to this machine.
    executablePath: e2eChromiumPath(),
    args: [
      ...HEADLESS_CHROMIUM_ARGS,
      '--host-resolver-rules=MAP academy.example.test 127.0.0.1, MAP *.example.test 127.0.0.1',
    ],
  },
})

test('the school’s pages answer on its own domain with its brand', async ({ page, db, baseURL, browser }) => {
  // The studio, the domain's pages, the hand-off there and back, then the removals: near a minute on a loaded machine.
  test.setTimeout(90_000)
  const owner = await createCreator(db, { plan: 'enterprise' })
  const slug = `brand-${randomBytes(3).toString('hex')}`
  const hostname = `${slug}.example.test`
  await createCreatorCourse(db, owner, { status: 'published', title: 'Branding Basics' })
  await signInAs(page, baseURL as string, db, owner)
  await page.goto('/studio/school')
  await page.getByLabel('School name').fill('Northwind Academy')
  // The shared schema checks the form before anything is sent: its message under the field, which takes the focus.
  const address = page.getByLabel('Address (/s/…)')
  await address.fill('-not an address-')
  await page.getByRole('button', { name: 'Save school' }).click()
  await expect(page.getByText('Use lower-case letters, digits and hyphens (not at the start or end)')).toBeVisible()
  await expect(address).toHaveAttribute('aria-invalid', 'true')
  await expect(address).toBeFocused()
  await address.fill(slug)
  await page.getByRole('button', { name: 'Save school' }).click()
  await expect(page.getByText('School saved')).toBeVisible()

  await page.goto('/studio/domain')
  await expect(page.getByRole('heading', { name: 'Domain and brand', level: 1 })).toBeVisible()
  await page.getByLabel('Domain', { exact: true }).fill(hostname)
  await page.getByRole('button', { name: 'Add domain' }).click()
  await expect(page.getByText(`_skillforge-verify.${hostname}`)).toBeVisible()
  await expect(page.getByTestId('domain-state')).toHaveText('Waiting for the TXT record')
  await page.getByLabel('Name shown').fill('Northwind Academy')
  await page.getByLabel('Brand colour').fill('green')
  await page.getByRole('button', { name: 'Save brand' }).click()
  await expect(page.getByText('Enter a colour as #rrggbb')).toBeVisible()
  await expect(page.getByLabel('Brand colour')).toBeFocused()
  await page.getByLabel('Brand colour').fill('#0b6e4f')
  await page.getByRole('button', { name: 'Save brand' }).click()
  await expect(page.getByText('Brand saved')).toBeVisible()

  // The record is checked by DNS in the integration test; here the domain is marked as the check would.
  await db.updateTable('school_domains').set({ verified_at: new Date() }).where('hostname', '=', hostname).execute()
  await page.reload()
  await expect(page.getByTestId('domain-state')).toHaveText('Verified')

  const port = new URL(baseURL as string).port
  const visitor = await browser.newContext()
  const tab = await visitor.newPage()
  await tab.goto(`http://${hostname}:${port}/`)
  await expect(tab).toHaveURL(`http://${hostname}:${port}/s/${slug}`)
  await expect(tab.getByRole('heading', { name: 'Northwind Academy', level: 1 })).toBeVisible()
  await expect(tab.getByTestId('brand-name')).toHaveText('Northwind Academy')
  await expect(tab.getByRole('link', { name: 'Branding Basics' }).first()).toBeVisible()
  await expect(tab).toHaveTitle('Northwind Academy')
  expect(await tab.locator('body').innerText()).not.toMatch(/skillforge/i)
  // Every page's title and share tags there name the school, as the server renders them and in the browser.
  const coursePath = (await tab.getByRole('link', { name: 'Branding Basics' }).first().getAttribute('href')) as string
  const rendered = await htmlAsHost(`${hostname}:${port}`, `http://127.0.0.1:${port}${coursePath}`)
  expect(rendered).toContain('<title>Branding Basics | Northwind Academy</title>')
  expect(rendered).toMatch(/<meta property="og:site_name" content="Northwind Academy"[^>]*>/)
  expect(rendered).not.toMatch(/<title>[^<]*SkillForge/)
  await tab.goto(`http://${hostname}:${port}${coursePath}`)
  await expect(tab).toHaveTitle('Branding Basics | Northwind Academy')
  await expect(tab.locator('meta[property="og:site_name"]')).toHaveAttribute('content', 'Northwind Academy')
  await tab.goto(`http://${hostname}:${port}/cart`)
  await expect(tab).toHaveTitle(/\| Northwind Academy$/)
  // The domain is the school's site (decision 0143): no marketplace menu, and its logo leads home — the school's page,
  // in the browser too (a link followed, not only a page loaded).
  const header = tab.getByRole('banner')
  for (const name of ['Browse', 'Services', 'Pricing', 'About Us', 'Contact']) {
    await expect(header.getByRole('button', { name }).or(header.getByRole('link', { name }))).toHaveCount(0)
  }
  await tab.goto(`http://${hostname}:${port}${coursePath}`)
  await tab.getByTestId('brand-name').click()
  await expect(tab).toHaveURL(`http://${hostname}:${port}/s/${slug}`)
  await expect(tab.getByRole('heading', { name: 'Northwind Academy', level: 1 })).toBeVisible()
  await expect(tab.getByText('Get Started For Free')).toHaveCount(0)
  // The marketplace's catalogue is the school's page there; the marketplace's own pages open on the marketplace.
  await tab.goto(`http://${hostname}:${port}/courses?category=business`)
  await expect(tab).toHaveURL(`http://${hostname}:${port}/s/${slug}`)
  await tab.goto(`http://${hostname}:${port}/pricing`)
  await expect(tab).toHaveURL(`${baseURL}/pricing`)
  // The platform's own address keeps SkillForge's name.
  await page.goto(coursePath)
  await expect(page).toHaveTitle('Branding Basics | SkillForge')

  // Signing in there (decision 0063): no password form under the school's name. The log-in is handed to the
  // platform's page, and the learner comes back to the domain signed in, with a session of that domain's own.
  const learner = await createUser(db)
  await tab.goto(`http://${hostname}:${port}/login?redirect=/courses`)
  await expect(tab.getByLabel('Password')).toHaveCount(0)
  await tab.getByRole('link', { name: 'Continue to sign in' }).click()
  await expect(tab).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/login\?redirect=%2Fhandoff/)
  await tab.getByLabel('Email').fill(learner.email)
  await tab.getByLabel('Password').fill(learner.password)
  await tab.getByRole('button', { name: 'Log In' }).click()
  await expect(tab.getByRole('heading', { name: 'Continue to Northwind Academy', level: 1 })).toBeVisible()
  await tab.getByRole('button', { name: 'Continue to Northwind Academy' }).click()
  // Back where the sign-in began: /courses, the school's page on its domain.
  await expect(tab).toHaveURL(`http://${hostname}:${port}/s/${slug}`)
  const session = await db
    .selectFrom('sessions')
    .select('site_host')
    .where('user_id', '=', learner.id)
    .where('site_host', '=', hostname)
    .executeTakeFirst()
  expect(session?.site_host).toBe(hostname)
  await expect(tab.getByTestId('user-menu')).toBeVisible()
  // Signed in, the log-in page goes on to the home: the school's page, not the marketplace's creator home.
  await tab.goto(`http://${hostname}:${port}/login`)
  await expect(tab).toHaveURL(`http://${hostname}:${port}/s/${slug}`)
  await expect(tab.getByRole('heading', { name: 'Northwind Academy', level: 1 })).toBeVisible()
  // Changing the password happens on the platform's page too.
  await tab.goto(`http://${hostname}:${port}/account`)
  await expect(tab.getByLabel('Current password')).toHaveCount(0)
  await expect(tab.getByRole('link', { name: 'Change your password there' })).toHaveAttribute(
    'href',
    `${baseURL}/account/security`,
  )
  await visitor.close()

  // The owner takes the brand off and removes the domain, each asked first (decision 0143), by keyboard.
  await page.goto('/studio/domain')
  await page.getByRole('button', { name: 'Remove brand' }).focus()
  await page.keyboard.press('Enter')
  const brandDialog = page.getByRole('dialog', { name: 'Remove your brand?' })
  await expect(brandDialog).toContainText('stop showing “Northwind Academy”')
  await brandDialog.getByRole('button', { name: 'Remove brand' }).click()
  await expect(page.getByText('Brand removed')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Remove brand' })).toHaveCount(0)
  const school = await db.selectFrom('schools').select('id').where('owner_id', '=', owner.id).executeTakeFirstOrThrow()
  expect(await db.selectFrom('school_brands').select('school_id').where('school_id', '=', school.id).execute()).toEqual(
    [],
  )
  await page.getByRole('button', { name: 'Remove domain' }).click()
  const domainDialog = page.getByRole('dialog', { name: `Remove ${hostname}?` })
  await expect(domainDialog).toContainText('learners signed in there are signed out')
  // Cancel keeps it.
  await page.keyboard.press('Escape')
  await expect(domainDialog).toHaveCount(0)
  await expect(page.getByTestId('domain-state')).toHaveText('Verified')
  await page.getByRole('button', { name: 'Remove domain' }).click()
  await domainDialog.getByRole('button', { name: 'Remove domain' }).click()
  await expect(page.getByText('Domain removed')).toBeVisible()
  await expect(page.getByTestId('domain-state')).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Add domain' })).toBeVisible()
  await expect(page.getByLabel('Domain', { exact: true })).toHaveValue('')
  // The name no longer serves the school, and its learner's session there ended.
  expect(await db.selectFrom('sessions').select('id').where('site_host', '=', hostname).execute()).toEqual([])
})

test('on a school’s domain My courses lists the school’s courses, and another course’s player and certificate are the marketplace’s', async ({
  page,
  db,
  baseURL,
}) => {
  const stamp = randomBytes(3).toString('hex')
  const owner = await createCreator(db, { plan: 'enterprise' })
  const school = await ensureSchool(db, owner.id)
  const hostname = `mine-${stamp}.example.test`
  await db
    .insertInto('school_domains')
    .values({ school_id: school.id, hostname, verification_token: `sf-${stamp}`, verified_at: new Date() })
    .execute()
  const own = await createCreatorCourse(db, owner, { status: 'published', title: `School Course ${stamp}` })
  const stranger = await createCreator(db, { plan: 'pro' })
  const other = await createCreatorCourse(db, stranger, { status: 'published', title: `Marketplace Course ${stamp}` })
  const { user: learner } = await buyerOfCourse(db, own.id)
  await buyerOfCourse(db, other.id, learner)
  // Signed in on the school's domain, as the hand-off leaves a learner there (a session of that host: decision 0063).
  const site = `http://${hostname}:${new URL(baseURL as string).port}`
  const { token } = await createSession(db, learner.id, true, undefined, { siteHost: hostname })
  await page.context().addCookies([{ name: SESSION_COOKIE, value: token, url: site, httpOnly: true, sameSite: 'Lax' }])

  await page.goto(`${site}/account#my-courses`)
  const list = page.getByTestId('my-courses')
  await expect(list.getByRole('link', { name: own.title })).toBeVisible()
  await expect(list.getByRole('link', { name: other.title })).toHaveCount(0)
  await expect(page.getByTestId('my-courses-elsewhere')).toHaveText(
    `One more course in your account is not from ${school.name}. See all your courses`,
  )
  await expect(page.getByRole('link', { name: 'See all your courses' })).toHaveAttribute(
    'href',
    `${baseURL}/account#my-courses`,
  )
  // The account there is the school's: no Premium membership nor business services (the marketplace's), and the
  // order bought from the school, the other counted with the way to it.
  await expect(page.getByRole('heading', { name: 'Membership' })).toHaveCount(0)
  await expect(page.getByRole('heading', { name: 'My services' })).toHaveCount(0)
  await expect(page.getByTestId('order-history').locator(':scope > li')).toHaveCount(1)
  await expect(page.getByTestId('order-history')).toContainText(own.title)
  await expect(page.getByTestId('orders-elsewhere')).toHaveText(
    `One more order in your account is not from ${school.name}. See all your orders`,
  )
  expect(await axeViolations(page)).toEqual([])
  // The school's course plays there, followed from My courses.
  await list.getByRole('link', { name: 'Continue learning' }).click()
  await expect(page).toHaveURL(new RegExp(`^${site}/learn/${own.id}`))
  // /live there: the school's course's session; the other course's is counted, with the way to it.
  const liveOf = (courseId: string, title: string) => liveSessionRow({ hostId: owner.id, courseId, title })
  await db
    .insertInto('live_sessions')
    .values([liveOf(own.id, `School Live ${stamp}`), liveOf(other.id, `Marketplace Live ${stamp}`)])
    .execute()
  await page.goto(`${site}/live`)
  await expect(page.getByText(`Live sessions of ${school.name}’s courses you hold.`)).toBeVisible()
  await expect(page.getByTestId('live-session').filter({ hasText: `School Live ${stamp}` })).toBeVisible()
  await expect(page.getByTestId('live-session').filter({ hasText: `Marketplace Live ${stamp}` })).toHaveCount(0)
  await expect(page.getByTestId('live-elsewhere')).toHaveText(
    `One more live session you may attend is not from ${school.name}. See all your live sessions`,
  )
  await expect(page.getByRole('link', { name: 'See all your live sessions' })).toHaveAttribute(
    'href',
    `${baseURL}/live`,
  )
  // The conversations with instructors there: the school's course's; the other one is counted, and its page is the
  // marketplace's.
  await db
    .insertInto('course_message_threads')
    .values([
      { course_id: own.id, member_id: learner.id, subject: `About the school ${stamp}` },
      { course_id: other.id, member_id: learner.id, subject: `About elsewhere ${stamp}` },
    ])
    .execute()
  await page.goto(`${site}/account/messages`)
  await expect(page.getByTestId('conversation')).toHaveText([new RegExp(`About the school ${stamp}`)])
  await expect(page.getByTestId('messages-elsewhere')).toHaveText(
    `One more conversation with an instructor is not from ${school.name}. See all your messages`,
  )
  await page.goto(`${site}/account/messages/${other.id}`)
  await expect(page).toHaveURL(new RegExp(`^${baseURL}/`))
  // The cart there pays for the school's courses only: a course another creator sells is marked, and the checkout
  // waits until it is removed (or the cart is paid on the marketplace).
  const ownMore = await createCreatorCourse(db, owner, { status: 'published', title: `School More ${stamp}` })
  const otherMore = await createCreatorCourse(db, stranger, { status: 'published', title: `Elsewhere More ${stamp}` })
  await db
    .insertInto('cart_items')
    .values(
      [ownMore, otherMore].map((course) => ({ user_id: learner.id, kind: 'course' as const, course_id: course.id })),
    )
    .execute()
  await page.goto(`${site}/cart`)
  const foreign = page.getByTestId('cart-item').filter({ hasText: otherMore.title })
  await expect(foreign.getByTestId('cart-item-elsewhere')).toHaveText(`Not sold by ${school.name}`)
  await expect(
    page.getByTestId('cart-item').filter({ hasText: ownMore.title }).getByTestId('cart-item-elsewhere'),
  ).toHaveCount(0)
  await expect(page.getByTestId('other-sellers')).toContainText('this school does not sell')
  await expect(page.getByRole('link', { name: 'Open your cart on the marketplace' })).toHaveAttribute(
    'href',
    `${baseURL}/cart`,
  )
  await expect(page.getByRole('button', { name: 'Proceed to Checkout' })).toBeDisabled()
  await foreign.getByRole('button', { name: `Remove ${otherMore.title}` }).click()
  await expect(page.getByTestId('cart-item')).toHaveCount(1)
  await expect(page.getByTestId('other-sellers')).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Proceed to Checkout' })).toBeEnabled()
  // The other course's player, asked for on the school's domain, is the marketplace's.
  await page.goto(`${site}/learn/${other.id}`)
  await expect(page).toHaveURL(new RegExp(`^${baseURL}/`))
  expect(new URL(page.url()).host).not.toBe(new URL(site).host)
  // So is a certificate earned in it; the school's course's certificate is shown there.
  await db
    .insertInto('course_completions')
    .values(
      [own, other].map((course) => ({
        user_id: learner.id,
        course_id: course.id,
        lesson_count: 1,
        access_source: 'purchase' as const,
      })),
    )
    .execute()
  const [ownCertificate, otherCertificate] = await db
    .insertInto('certificates')
    .values(
      [own, other].map((course) => ({
        user_id: learner.id,
        course_id: course.id,
        learner_name: 'Cert Learner',
        course_title: course.title,
        instructor_name: 'An instructor',
      })),
    )
    .returning('id')
    .execute()
  await page.goto(`${site}/certificates/${ownCertificate!.id}`)
  await expect(page).toHaveURL(`${site}/certificates/${ownCertificate!.id}`)
  await expect(page.getByTestId('certificate-learner')).toHaveText('Cert Learner')
  await page.goto(`${site}/certificates/${otherCertificate!.id}`)
  await expect(page).toHaveURL(`${baseURL}/certificates/${otherCertificate!.id}`)
  await expect(page.getByTestId('certificate-learner')).toHaveText('Cert Learner')
})

/** A page's server-rendered HTML as asked for under another Host (the school's domain resolves only in Chromium). */
function htmlAsHost(host: string, url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = httpGet(url, { headers: { host } }, (response) => {
      let body = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => {
        body += chunk
      })
      response.on('end', () => resolve(body))
    })
    request.on('error', reject)
  })
}
