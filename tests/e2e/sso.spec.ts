// Single sign-on per school (issue 36, decision 0062): an Enterprise creator points the school at its company's
// OpenID provider (a real oidc-provider on 127.0.0.1) from /studio/sso; a learner clicks "Sign in with {school}" on
// the school's page, logs in at the provider's own page and lands back on the school's page, signed in.
import { randomBytes } from 'node:crypto'
import { createCreator } from '../support/creator-courses.ts'
import { startOidcProvider } from '../support/oidc-provider.ts'
import { expect, signInAs, test } from './fixtures.ts'

test('an Enterprise school configures SSO and a learner signs in through its provider', async ({
  page,
  db,
  baseURL,
  browser,
}) => {
  const domain = `acme-${randomBytes(3).toString('hex')}.test`
  const email = `learner@${domain}`
  const provider = await startOidcProvider({
    redirectUris: [`${baseURL}/auth/sso/callback`],
    accounts: { 'lee.learner': { email, emailVerified: true, givenName: 'Lee', familyName: 'Learner' } },
  })
  try {
    const owner = await createCreator(db, { plan: 'enterprise' })
    await signInAs(page, baseURL as string, db, owner)
    await page.goto('/studio/sso')
    await expect(page.getByRole('heading', { name: 'Single sign-on', level: 1 })).toBeVisible()
    await expect(page.getByTestId('sso-redirect-uri')).toHaveText(`${baseURL}/auth/sso/callback`)
    const form = page.getByRole('form', { name: 'Your provider' })
    await form.getByLabel('Issuer URL').fill(provider.issuer)
    await form.getByLabel('Client id').fill(provider.clientId)
    await form.getByLabel('Client secret').fill(provider.clientSecret)
    await form.getByLabel('Allowed e-mail domains').fill(domain)
    await form.getByRole('button', { name: 'Save single sign-on' }).click()
    await expect(page.getByText('Single sign-on saved')).toBeVisible()
    await expect(form.getByText('A secret is stored. Leave empty to keep it.')).toBeVisible()
    const school = await db
      .selectFrom('schools')
      .select(['name', 'slug'])
      .where('owner_id', '=', owner.id)
      .executeTakeFirstOrThrow()

    const learnerContext = await browser.newContext({ baseURL })
    const tab = await learnerContext.newPage()
    await tab.goto(`/s/${school.slug}`)
    await tab.getByRole('link', { name: `Sign in with ${school.name}` }).click()
    // The provider's own log-in page (any password).
    await expect(tab).toHaveURL(new RegExp(`^${provider.issuer}/interaction/`))
    await tab.locator('input[name="login"]').fill('lee.learner')
    await tab.locator('input[name="password"]').fill('provider-password')
    await tab.getByRole('button', { name: 'Sign-in' }).click()
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
  } finally {
    await provider.close()
  }
})
