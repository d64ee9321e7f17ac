// Outgoing webhooks in the browser (issue 36, decision 0061): an Enterprise creator adds an endpoint pointing at a
// receiver this test starts on 127.0.0.1 (with the password, decision 0141: its secret shown once, the owner mailed),
// reveals its secret (the password again) and sends a test event; the server's job queue delivers it, the receiver
// checks it with the reference library (standardwebhooks' Webhook.verify), and the delivery shows as delivered in the
// page's log.
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'
import { WEBHOOK_SECRET_MAIL_KIND } from '../../src-server/flows/webhooks.ts'
import { latestMailTo } from '../../src-server/mail/outbox.ts'
import { createCreator } from '../support/creator-courses.ts'
import { axeViolations, pageWidth } from './a11y.ts'
import { expect, signInAs, test } from './fixtures.ts'
import { recordSecrets } from './secrets.ts'

test('an Enterprise creator adds an endpoint and a signed test event reaches it and the log', async ({
  page,
  db,
  baseURL,
}) => {
  // An axe pass over the page, beside the delivery through the job queue: more than the default 30 s on a loaded machine.
  test.setTimeout(90_000)
  const received: { headers: IncomingHttpHeaders; body: string }[] = []
  const receiver = createServer((req, res) => {
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (chunk) => {
      body += chunk
    })
    req.on('end', () => {
      received.push({ headers: req.headers, body })
      res.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/skillforge`
  try {
    const owner = await createCreator(db, { plan: 'enterprise' })
    await signInAs(page, baseURL as string, db, owner)
    await page.goto('/studio/webhooks')
    await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible()
    // What each event sends is on the API reference.
    await expect(page.getByRole('link', { name: 'the events in the API reference' })).toHaveAttribute(
      'href',
      '/developers/api#webhooks',
    )

    const form = page.getByRole('form', { name: 'Add an endpoint' })
    // The shared schema checks the address before anything is sent: its message under the field, which takes focus.
    await form.getByLabel('Endpoint URL').fill('crm.example.com/hook')
    await form.getByRole('button', { name: 'Add endpoint' }).click()
    await expect(form.getByText('Enter a full URL, starting with https://')).toBeVisible()
    await expect(form.getByLabel('Endpoint URL')).toBeFocused()
    await form.getByLabel('Endpoint URL').fill(url)
    await form.getByLabel('Description (optional)').fill('Our CRM')
    await form.getByRole('checkbox', { name: /question\.asked/ }).uncheck()
    // An endpoint outlives the session that adds it: the owner proves it is them (decision 0141).
    await form.getByRole('button', { name: 'Add endpoint' }).click()
    await expect(form.getByRole('alert')).toContainText('Enter your password, or a code from your authenticator app.')
    await form.getByLabel('Your password').fill(owner.password)
    await form.getByRole('button', { name: 'Add endpoint' }).click()

    // Its secret, shown once with Copy above the form; focus goes to it.
    await expect(page.getByRole('heading', { name: 'The signing secret of “Our CRM”' })).toBeFocused()
    const shown = page.getByTestId('new-webhook-secret')
    await expect(shown).toHaveText(/^whsec_[A-Za-z0-9+/=]{40,}$/)
    const secret = (await shown.textContent()) ?? ''
    // The log audit at the end of a full run checks the server never logged it.
    recordSecrets(new Set([secret]))
    await expect(page.getByRole('button', { name: 'Copy secret' })).toBeVisible()
    const told = await latestMailTo(db, owner.email, WEBHOOK_SECRET_MAIL_KIND)
    expect(told?.subject).toMatch(/^A new webhook endpoint for /)
    expect(told?.text_body).not.toContain(secret)
    await page.getByRole('button', { name: 'I have copied it' }).click()
    await expect(shown).toBeHidden()
    await expect(page.getByRole('heading', { name: 'Our CRM', level: 2 })).toBeFocused()

    const endpoint = page.getByRole('region', { name: 'Endpoint Our CRM' })
    await expect(endpoint.getByText(url)).toBeVisible()
    // Revealing it again asks for the password too; the keyboard goes on in the form.
    await endpoint.getByRole('button', { name: 'Reveal secret' }).click()
    const proof = endpoint.getByRole('form', { name: 'Reveal the secret' })
    await expect(proof.getByLabel('Your password')).toBeFocused()
    // On a phone, with both proof forms open, the page fits and axe finds nothing serious.
    await page.setViewportSize({ width: 390, height: 844 })
    expect(await pageWidth(page)).toBeLessThanOrEqual(390)
    expect(await axeViolations(page)).toEqual([])
    await page.setViewportSize({ width: 1280, height: 720 })
    await proof.getByLabel('Your password').focus()
    await page.keyboard.type('not-the-password')
    await page.keyboard.press('Enter')
    await expect(proof.getByRole('alert')).toContainText('That password is not right.')
    await proof.getByLabel('Your password').fill(owner.password)
    await proof.getByRole('button', { name: 'Reveal secret' }).click()
    await expect(endpoint.getByTestId('webhook-secret')).toHaveText(secret)
    await expect(endpoint.getByRole('button', { name: 'Copy secret' })).toBeFocused()

    await endpoint.getByRole('button', { name: 'Send test event' }).click()
    await expect.poll(() => received.length, { timeout: 20_000 }).toBe(1)
    const message = received[0] as { headers: IncomingHttpHeaders; body: string }
    const verified = new Webhook(secret).verify(message.body, message.headers as Record<string, string>)
    expect(verified).toMatchObject({ type: 'webhook.test' })

    const log = endpoint.getByRole('list', { name: 'Delivery log' })
    await expect(log.getByText('Delivered')).toBeVisible({ timeout: 15_000 })
    await expect(log).toContainText('webhook.test')
    await expect(log).toContainText('HTTP 204')

    // With the keyboard, Disable keeps focus while it turns into Enable (it never drops to the page).
    await endpoint.getByRole('button', { name: 'Disable' }).focus()
    await page.keyboard.press('Enter')
    await expect(endpoint).toContainText('Status: Disabled')
    await expect(endpoint.getByRole('button', { name: 'Enable' })).toBeFocused()
  } finally {
    receiver.closeAllConnections()
    await new Promise((resolve) => receiver.close(resolve))
  }
})
