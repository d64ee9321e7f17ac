// A school's custom domain whose proof lapsed (decision 0063, 2026-12-13): /studio/domain says so, with the reason and
// the TXT record to publish again, and "Check now" restores it once the record is back — at a phone's width and by
// keyboard, against a local DNS server on the e2e server's DNS_SERVERS (the re-check itself is tested in
// tests/integration/creators/school-domain-rechecks.test.ts).
import { randomBytes } from 'node:crypto'
import { ensureSchool } from '../../src-server/creators/schools.ts'
import { createCreator } from '../support/creator-courses.ts'
import { e2eDnsPort, startDnsServer } from '../support/dns-server.ts'
import { axeViolations } from './a11y.ts'
import { expect, signInAs, test } from './fixtures.ts'

test('the owner sees a lapsed domain, why, and restores it by keyboard at 390 px', async ({ page, db, baseURL }) => {
  const owner = await createCreator(db, { plan: 'pro' })
  const school = await ensureSchool(db, owner.id)
  const hostname = `lapsed-${randomBytes(3).toString('hex')}.example.test`
  const token = `sf-${randomBytes(9).toString('hex')}`
  const lapsedAt = new Date(Date.now() - 60 * 60 * 1000)
  await db
    .insertInto('school_domains')
    .values({
      school_id: school.id,
      hostname,
      verification_token: token,
      verified_at: null,
      checked_at: lapsedAt,
      last_outcome: 'missing',
      lapsed_at: lapsedAt,
    })
    .execute()
  await page.setViewportSize({ width: 390, height: 844 })
  await signInAs(page, baseURL as string, db, owner)
  await page.goto('/studio/domain')
  const section = page.getByRole('region', { name: 'Your domain' })
  await expect(page.getByTestId('domain-state')).toHaveText('Verification lapsed')
  const message = page.getByTestId('domain-message')
  await expect(message).toContainText(`No longer verified since ${lapsedAt.toISOString().slice(0, 10)}`)
  await expect(message).toContainText(`no TXT record was found at _skillforge-verify.${hostname} for more than a day`)
  await expect(message).toContainText('publish the TXT record below, then press Check now')
  await expect(section.getByText('Publish this TXT record again')).toBeVisible()
  await expect(section.getByText(`_skillforge-verify.${hostname}`, { exact: true })).toBeVisible()
  await expect(section.getByText(token, { exact: true })).toBeVisible()
  const box = await section.boundingBox()
  expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(390)
  expect(await axeViolations(page)).toEqual([])

  const dns = await startDnsServer({ port: e2eDnsPort(new URL(baseURL as string).port) })
  try {
    const check = section.getByRole('button', { name: 'Check now' })
    await check.focus()
    // Still missing: still lapsed, and the button keeps the focus.
    await page.keyboard.press('Enter')
    const checkedAt = () =>
      db
        .selectFrom('school_domains')
        .select('checked_at')
        .where('hostname', '=', hostname)
        .executeTakeFirstOrThrow()
        .then((row) => row.checked_at?.getTime())
    await expect.poll(checkedAt).toBeGreaterThan(lapsedAt.getTime())
    await expect(check).toHaveText('Check now')
    await expect(page.getByTestId('domain-state')).toHaveText('Verification lapsed')
    await expect(message).toContainText('No longer verified')
    await expect(check).toBeFocused()
    dns.records.set(`_skillforge-verify.${hostname}`, token)
    await page.keyboard.press('Enter')
    await expect(page.getByTestId('domain-state')).toHaveText('Verified')
    await expect(message).toHaveText(`Verified: ${hostname} serves your school.`)
    await expect(check).toBeFocused()
  } finally {
    await dns.close()
  }
})
