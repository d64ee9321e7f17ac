// Single sign-on per school (issue 36, decision 0062): an Enterprise creator points the school at its company's
// OpenID provider (a real oidc-provider on 127.0.0.1) from /studio/sso; a learner clicks "Sign in with {school}" on
// the school's page and logs in at the provider's own page, but no account is made while the school has not proven
// the e-mail domain (decision 0091): the sign-in fails and says so. A learner whose password account has the address
// the provider gives links it on the consent page, with the password, and unlinks it again on the security page. The
// owner then proves the e-mail domain by its TXT record on /studio/sso (at a phone's width, by keyboard, against a
// local DNS server), after which the first learner's sign-in makes an account and lands back on the school's page,
// signed in, and the second's account is linked straight away. On the school's own domain the log-in page offers the
// school's sign-in, and the whole flow stays on that domain (decision 0062). Someone joining a school that requires its
// sign-in, at a domain it proved, is sent on to that sign-in at once, their password session ended (decision 0144).
import { randomBytes } from 'node:crypto'
import type { Browser, Page } from '@playwright/test'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/types.ts'
import { createInvite } from '../../src-server/creators/invites.ts'
import { e2eChromiumPath, HEADLESS_CHROMIUM_ARGS } from '../support/chromium.ts'
import { createCreator } from '../support/creator-courses.ts'
import { e2eDnsPort, startDnsServer } from '../support/dns-server.ts'
import { createUser } from '../support/factories.ts'
import { type LocalOidcProvider, startOidcProvider } from '../support/oidc-provider.ts'
import { axeViolations } from './a11y.ts'
import { expect, signInAs, test } from './fixtures.ts'

test.use({
  launchOptions: {
    // The project's own (playwright.config.ts), plus the schools' domains mapped to this machine.
    executablePath: e2eChromiumPath(),
    args: [...HEADLESS_CHROMIUM_ARGS, '--host-resolver-rules=MAP *.example.test 127.0.0.1'],
  },
})

/** An Enterprise creator, signed in, who saved `provider` for `domain` on /studio/sso: them and their school. */
async function schoolWithProvider(
  page: Page,
  baseURL: string,
  db: Kysely<Database>,
  provider: LocalOidcProvider,
  domain: string,
) {
  const owner = await createCreator(db, { plan: 'enterprise' })
  await signInAs(page, baseURL, db, owner)
  await page.goto('/studio/sso')
  await saveProvider(page, provider, domain)
  const school = await db
    .selectFrom('schools')
    .select(['id', 'name', 'slug'])
    .where('owner_id', '=', owner.id)
    .executeTakeFirstOrThrow()
  return { owner, school }
}

/** The owner's /studio/sso form filled with the provider's client and the allowed domain, and saved. */
async function saveProvider(page: Page, provider: LocalOidcProvider, domain: string) {
  const form = page.getByRole('form', { name: 'Your provider' })
  await form.getByLabel('Issuer URL').fill(provider.issuer)
  await form.getByLabel('Client id').fill(provider.clientId)
  await form.getByLabel('Client secret').fill(provider.clientSecret)
  await form.getByLabel('Allowed e-mail domains').fill(domain)
  await form.getByRole('button', { name: 'Save single sign-on' }).click()
  await expect(page.getByText('Single sign-on saved')).toBeVisible()
  return form
}

/**
 * Clicks "Sign in with {school}" on the page `tab` shows, then logs in as `login` on the provider's own log-in page
 * (any password); the provider then sends the browser back to the app.
 */
async function signInThroughSchool(tab: Page, schoolName: string, provider: LocalOidcProvider, login: string) {
  await tab.getByRole('link', { name: `Sign in with ${schoolName}` }).click()
  await expect(tab).toHaveURL(new RegExp(`^${provider.issuer}/interaction/`))
  await tab.locator('input[name="login"]').fill(login)
  await tab.locator('input[name="password"]').fill('provider-password')
  await tab.getByRole('button', { name: 'Sign-in' }).click()
}

/** A new, signed-out browser on the school's page that signs in there through the school's provider as `login`. */
async function signInSignedOut(
  browser: Browser,
  baseURL: string | undefined,
  school: { name: string; slug: string },
  provider: LocalOidcProvider,
  login: string,
) {
  const context = await browser.newContext({ baseURL })
  const tab = await context.newPage()
  await tab.goto(`/s/${school.slug}`)
  await signInThroughSchool(tab, school.name, provider, login)
  return { context, tab }
}

test('an Enterprise school configures SSO and a learner signs in through its provider', async ({
  page,
  db,
  baseURL,
  browser,
}) => {
  // Five trips through the provider's log-in page and a DNS check that waits out its time-out: over a minute on a
  // loaded machine.
  test.setTimeout(120_000)
  const domain = `acme-${randomBytes(3).toString('hex')}.test`
  const email = `learner@${domain}`
  const provider = await startOidcProvider({
    redirectUris: [`${baseURL}/auth/sso/callback`],
    accounts: {
      'lee.learner': { email, emailVerified: true, givenName: 'Lee', familyName: 'Learner' },
      'mia.member': { email: `mia@${domain}`, emailVerified: true },
    },
  })
  try {
    const owner = await createCreator(db, { plan: 'enterprise' })
    await signInAs(page, baseURL as string, db, owner)
    await page.goto('/studio/sso')
    await expect(page.getByRole('heading', { name: 'Single sign-on', level: 1 })).toBeVisible()
    await expect(page.getByTestId('sso-redirect-uri')).toHaveText(`${baseURL}/auth/sso/callback`)
    const form = await saveProvider(page, provider, domain)
    await expect(form.getByText('A secret is stored. Leave empty to keep it.')).toBeVisible()
    const school = await db
      .selectFrom('schools')
      .select(['name', 'slug'])
      .where('owner_id', '=', owner.id)
      .executeTakeFirstOrThrow()

    // Lee has no account: none is made while the school has not proven the domain; the sign-in says why.
    const { context: refusedContext, tab: refusedTab } = await signInSignedOut(
      browser,
      baseURL,
      school,
      provider,
      'lee.learner',
    )
    await expect(refusedTab).toHaveURL(/\/auth\/callback\?error=/)
    await expect(refusedTab.getByRole('heading', { name: 'Sign-in failed' })).toBeVisible()
    await expect(
      // In the page's own words, naming the school by its address (decision 0144).
      refusedTab.getByText(
        `${school.name} sign-in failed: This school has not verified your e-mail domain yet, so its sign-in cannot make an account for you.`,
        { exact: true },
      ),
    ).toBeVisible()
    expect(await db.selectFrom('users').select('id').where('email', '=', email).execute()).toEqual([])
    await refusedContext.close()

    // Mia already has a password account with that address: signed in, she is asked whether to link it.
    const mia = await createUser(db, { email: `mia@${domain}` })
    const miaContext = await browser.newContext({ baseURL })
    const miaTab = await miaContext.newPage()
    await signInAs(miaTab, baseURL as string, db, mia)
    await miaTab.goto(`/s/${school.slug}`)
    await signInThroughSchool(miaTab, school.name, provider, 'mia.member')
    await expect(miaTab).toHaveURL(/\/account\/sso-link$/)
    const consent = miaTab.getByRole('region', { name: `Link ${school.name}’s sign-in to your account?` })
    await expect(consent).toContainText(`mia@${domain}`)
    await expect(consent).toContainText('administrators run that sign-in')
    expect(await axeViolations(miaTab)).toEqual([])
    await consent.getByLabel('Your password').fill('not-her-password')
    await consent.getByRole('button', { name: 'Link my account' }).click()
    await expect(consent.getByRole('alert')).toHaveText('That password is not right.')
    await consent.getByLabel('Your password').fill(mia.password)
    await consent.getByRole('button', { name: 'Link my account' }).click()
    await expect(miaTab.getByText(`Linked to ${school.name}’s sign-in`)).toBeVisible()
    await expect(miaTab).toHaveURL(new RegExp(`/s/${school.slug}$`))
    const links = () => db.selectFrom('school_sso_links').select('user_id').where('user_id', '=', mia.id).execute()
    expect(await links()).toHaveLength(1)

    // The security page lists the link; Unlink ends it.
    await miaTab.goto('/account/security')
    const schoolSignIns = miaTab.getByRole('region', { name: 'School sign-ins' })
    await schoolSignIns.getByRole('button', { name: `Unlink ${school.name}’s sign-in` }).click()
    await expect(miaTab.getByText(`${school.name}’s sign-in no longer signs in to your account.`)).toBeVisible()
    await expect(schoolSignIns).toHaveCount(0)
    expect(await links()).toHaveLength(0)
    await miaContext.close()

    // The owner proves the e-mail domain by its own TXT record, at a phone's width and by keyboard.
    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto('/studio/sso')
    const proofs = page.getByRole('region', { name: 'Prove your e-mail domains' })
    const proof = proofs.getByRole('listitem').filter({ hasText: domain })
    const status = proof.getByTestId('sso-domain-status')
    const message = proof.getByTestId('sso-domain-message')
    await expect(status).toHaveText('Not yet verified')
    await expect(message).toContainText(`new learners at ${domain} cannot join through your sign-in`)
    await expect(proof.getByTestId('sso-domain-record-name')).toHaveText(`_skillforge-sso.${domain}`)
    const token = (await proof.getByTestId('sso-domain-record-value').textContent()) ?? ''
    expect(token).toMatch(/^sf-/)
    const check = proof.getByRole('button', { name: `Check ${domain}` })
    await check.focus()
    // No DNS server answers yet: the check fails and says why; the button keeps the focus.
    await page.keyboard.press('Enter')
    await expect(status).toHaveText('Check failed', { timeout: 15_000 })
    await expect(message).toContainText('did not complete')
    await expect(check).toBeFocused()
    const dns = await startDnsServer({ port: e2eDnsPort(new URL(baseURL as string).port) })
    try {
      dns.records.set(`_skillforge-sso.${domain}`, 'sf-not-the-token')
      await page.keyboard.press('Enter')
      await expect(message).toContainText('none holds this value')
      await expect(status).toHaveText('Not yet verified')
      dns.records.set(`_skillforge-sso.${domain}`, token)
      await page.keyboard.press('Enter')
      await expect(status).toHaveText('Verified')
      await expect(message).toContainText(`new learners at ${domain} can join through your sign-in`)
      await expect(message).toContainText(`existing accounts at ${domain} can be linked`)
      await expect(check).toBeFocused()
    } finally {
      await dns.close()
    }
    const box = await proofs.boundingBox()
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(390)
    expect(await axeViolations(page)).toEqual([])

    // Proven: Lee's sign-in now makes a verified account and lands back on the school's page, signed in.
    const { context: learnerContext, tab } = await signInSignedOut(browser, baseURL, school, provider, 'lee.learner')
    await expect(tab).toHaveURL(new RegExp(`/s/${school.slug}$`))
    await expect(tab.getByRole('link', { name: 'Log In' })).toHaveCount(0)
    const learner = await db
      .selectFrom('users')
      .select(['id', 'email_verified'])
      .where('email', '=', email)
      .executeTakeFirstOrThrow()
    expect(learner.email_verified).toBe(true)
    const sessions = await db.selectFrom('sessions').select('id').where('user_id', '=', learner.id).execute()
    expect(sessions).toHaveLength(1)
    await learnerContext.close()

    // Signed out, Mia's school sign-in now reaches her account at once: the school proved her address's domain.
    const { context: provenContext, tab: provenTab } = await signInSignedOut(
      browser,
      baseURL,
      school,
      provider,
      'mia.member',
    )
    await expect(provenTab).toHaveURL(new RegExp(`/s/${school.slug}$`))
    await expect(provenTab.getByRole('link', { name: 'Log In' })).toHaveCount(0)
    expect(await links()).toHaveLength(1)
    await provenContext.close()

    // The owner removes the school's single sign-on, once confirmed (decision 0144): the settings, the secret and the
    // domains' proofs go, and the page offers to set it up afresh.
    await page.getByRole('button', { name: 'Remove single sign-on' }).click()
    await page.getByRole('dialog', { name: 'Remove single sign-on?' }).getByRole('button', { name: 'Remove' }).click()
    await expect(page.getByText('Single sign-on removed')).toBeVisible()
    await expect(page.getByRole('form', { name: 'Your provider' }).getByLabel('Issuer URL')).toHaveValue('')
    await expect(page.getByText('No e-mail domains yet')).toBeVisible()
    const ownersSchool = db.selectFrom('schools').select('id').where('owner_id', '=', owner.id)
    expect(await db.selectFrom('school_sso').select('issuer').where('school_id', 'in', ownersSchool).execute()).toEqual(
      [],
    )
  } finally {
    await provider.close()
  }
})

test('on the school’s own domain, a learner signs in with the school from the log-in page and stays there', async ({
  page,
  db,
  baseURL,
  browser,
}) => {
  // Two log-in pages and a trip through the provider: near 30 seconds on a loaded machine.
  test.setTimeout(60_000)
  const tag = randomBytes(3).toString('hex')
  const domain = `corp-${tag}.test`
  const port = new URL(baseURL as string).port
  const hostname = `sso-${tag}.example.test`
  const site = `http://${hostname}:${port}`
  const provider = await startOidcProvider({
    redirectUris: [`${baseURL}/auth/sso/callback`, `${site}/auth/sso/callback`],
    accounts: { 'ida.learner': { email: `ida@${domain}`, emailVerified: true, givenName: 'Ida' } },
  })
  try {
    const { owner, school } = await schoolWithProvider(page, baseURL as string, db, provider, domain)
    // The domain as its DNS check leaves it (tests/e2e/custom-domain.spec.ts adds one through the studio).
    await db
      .insertInto('school_domains')
      .values({ school_id: school.id, hostname, verification_token: 'proof', verified_at: new Date() })
      .execute()
    // Ida has no account yet: one is made only in an e-mail domain the school proved. Its proof as the Check leaves it
    // (the test above proves one through the studio, against a local DNS server).
    const now = new Date()
    const proven = await db
      .updateTable('school_sso_domain_proofs')
      .set({ verified_at: now, checked_at: now, last_outcome: 'verified' })
      .where('school_id', '=', school.id)
      .where('domain', '=', domain)
      .executeTakeFirst()
    expect(proven.numUpdatedRows).toBe(1n)
    await page.reload()
    await expect(page.getByTestId('sso-domain-redirect-uri')).toHaveText(`${site}/auth/sso/callback`)
    // White label on (as /studio/domain saves it): the school's sign-in goes by the brand's name, as its site does.
    const brandName = `Corp Academy ${tag}`
    await db
      .insertInto('school_brands')
      .values({ school_id: school.id, display_name: brandName, brand_color: '#225588' })
      .execute()

    // On the platform's host, /login?school= names the school's sign-in.
    const visitor = await browser.newContext({ baseURL })
    const platformTab = await visitor.newPage()
    await platformTab.goto(`/login?school=${school.slug}`)
    await expect(platformTab.getByRole('link', { name: `Sign in with ${brandName}` })).toHaveAttribute(
      'href',
      `/auth/sso/${school.slug}?redirect=%2F`,
    )
    // A member the school holds to its sign-in (decision 0130) is refused the password, and offered the school's
    // button with the refusal, not a path to find it by.
    await db.updateTable('school_sso').set({ require_for_members: true }).where('school_id', '=', school.id).execute()
    const held = await createUser(db, { email: `held@${domain}` })
    await db
      .insertInto('school_members')
      .values({ school_id: school.id, user_id: held.id, role: 'instructor', added_by: owner.id })
      .execute()
    await platformTab.goto('/login?redirect=/cart')
    await platformTab.getByLabel('Email').fill(held.email)
    await platformTab.getByLabel('Password').fill(held.password)
    await platformTab.getByRole('button', { name: 'Log In' }).click()
    // And whom to ask when that sign-in is closed to them: the owner, who can remove them (decision 0144).
    await expect(platformTab.getByRole('main').getByRole('alert')).toHaveText(
      `${brandName} requires its members to sign in with single sign-on: use “Sign in with ${brandName}”. If you cannot sign in there, ask the school’s owner (${owner.email}) to remove you from its team.`,
    )
    await expect(platformTab.getByRole('link', { name: `Sign in with ${brandName}` })).toHaveAttribute(
      'href',
      `/auth/sso/${school.slug}?redirect=%2Fcart`,
    )
    await visitor.close()

    const learnerContext = await browser.newContext()
    const tab = await learnerContext.newPage()
    await tab.goto(`${site}/login?redirect=/courses`)
    await signInThroughSchool(tab, brandName, provider, 'ida.learner')
    // Back where the sign-in began: /courses, the school's page on its own domain (decision 0143).
    await expect(tab).toHaveURL(`${site}/s/${school.slug}`)
    await expect(tab.getByRole('link', { name: 'Log In' })).toHaveCount(0)
    const session = await db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select('sessions.site_host')
      .where('users.email', '=', `ida@${domain}`)
      .executeTakeFirstOrThrow()
    expect(session.site_host).toBe(hostname)
    await learnerContext.close()
  } finally {
    await provider.close()
  }
})

test('joining a school that requires its sign-in at a proven domain goes on to that sign-in and back to the member page (decision 0144)', async ({
  page,
  db,
  baseURL,
  browser,
}) => {
  // A log-in, the acceptance and a trip through the provider: past 30 seconds on a loaded machine.
  test.setTimeout(60_000)
  const domain = `held-${randomBytes(3).toString('hex')}.test`
  const provider = await startOidcProvider({
    redirectUris: [`${baseURL}/auth/sso/callback`],
    accounts: { 'gus.member': { email: `gus@${domain}`, emailVerified: true, givenName: 'Gus' } },
  })
  try {
    const { owner, school } = await schoolWithProvider(page, baseURL as string, db, provider, domain)
    // "Require SSO" on, and the domain's proof as the Check leaves it (the first test proves one through the studio).
    await db.updateTable('school_sso').set({ require_for_members: true }).where('school_id', '=', school.id).execute()
    const now = new Date()
    await db
      .updateTable('school_sso_domain_proofs')
      .set({ verified_at: now, checked_at: now, last_outcome: 'verified' })
      .where('school_id', '=', school.id)
      .where('domain', '=', domain)
      .execute()
    const gus = await createUser(db, { email: `gus@${domain}` })
    const { token } = await createInvite(
      db,
      { scope: 'school', id: school.id },
      { email: gus.email, invitedBy: owner.id, role: 'support' },
    )
    const sessionsOfGus = async () =>
      (await db.selectFrom('sessions').select('id').where('user_id', '=', gus.id).execute()).map((row) => row.id)

    // Gus accepts signed in with his password; the join ends that session, and the page goes on to the school's
    // provider, which brings him back to his page for the school, signed in anew.
    const context = await browser.newContext({ baseURL })
    const tab = await context.newPage()
    await signInAs(tab, baseURL as string, db, gus)
    const before = await sessionsOfGus()
    expect(before).toHaveLength(1)
    await tab.goto(`/school-invite?token=${token}`)
    await tab.getByRole('button', { name: 'Accept the invitation' }).click()
    await expect(tab).toHaveURL(new RegExp(`^${provider.issuer}/interaction/`))
    expect(await sessionsOfGus()).toEqual([])
    await tab.locator('input[name="login"]').fill('gus.member')
    await tab.locator('input[name="password"]').fill('provider-password')
    await tab.getByRole('button', { name: 'Sign-in' }).click()
    await expect(tab).toHaveURL(`${baseURL}/member/${school.id}`)
    await expect(tab.getByRole('heading', { name: school.name, level: 1 })).toBeVisible()
    const after = await sessionsOfGus()
    expect(after).toHaveLength(1)
    expect(after).not.toContain(before[0])
    await context.close()
  } finally {
    await provider.close()
  }
})
