// Passkeys (issue 28, decision 0066) in Chromium with its virtual authenticator (CDP WebAuthn domain): a customer adds
// a passkey on /account/security, signs out, and signs in again from /login with "Sign in with a passkey" alone.
// WebAuthn refuses an IP address as the relying party, so this spec uses the server under `localhost`.
import { createUser } from '../support/factories.ts'
import { expect, signInAs, test } from './fixtures.ts'

test('a customer adds a passkey, signs out and signs in with it', async ({ page, db, baseURL }) => {
  const site = baseURL!.replace('127.0.0.1', 'localhost')
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('WebAuthn.enable')
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  })
  const user = await createUser(db, { firstName: 'Pia', lastName: 'Passkey' })
  await signInAs(page, site, db, user)

  await page.goto(`${site}/account/security`)
  const passkeys = page.getByRole('region', { name: 'Passkeys' })
  await expect(passkeys.getByText('No passkeys yet')).toBeVisible()
  await passkeys.getByLabel('Passkey name').fill('Test laptop')
  // A passkey signs in alone: adding one asks for the password first, as removing one does.
  await passkeys.getByRole('button', { name: 'Add a passkey' }).click()
  await expect(passkeys.getByText('Enter your password or a code to confirm.')).toBeVisible()
  await passkeys.getByRole('form', { name: 'Add a passkey' }).getByLabel('Your password').fill(user.password)
  await passkeys.getByRole('button', { name: 'Add a passkey' }).click()
  const row = passkeys.getByTestId('passkey-row')
  await expect(row).toContainText('Test laptop')
  await expect(row).toContainText('Last used never')

  // Sign out (the server ends the session), then back in with the passkey only.
  const out = await page.request.post(`${site}/trpc/auth.logout`, { headers: { origin: site }, data: {} })
  expect(out.ok()).toBe(true)
  await page.context().clearCookies()
  await page.goto(`${site}/login?redirect=%2Faccount%2Fsecurity`)
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click()
  await expect(page).toHaveURL(/\/account\/security$/)
  await expect(page.getByRole('region', { name: 'Passkeys' }).getByTestId('passkey-row')).not.toContainText(
    'Last used never',
  )
  const stored = await db
    .selectFrom('user_passkeys')
    .select(['name', 'last_used_at'])
    .where('user_id', '=', user.id)
    .execute()
  expect(stored).toEqual([{ name: 'Test laptop', last_used_at: expect.any(Date) }])
})
