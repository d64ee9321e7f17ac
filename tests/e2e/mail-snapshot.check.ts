// Between the end-to-end specs and the clock specs (project 'mail-snapshot' in playwright.config.ts): records the
// tokens of every link the server has mailed so far, for the log audit at the end of the run (log-audit.check.ts).
// The clock specs move the server's clock months ahead, and the retention job then deletes the copies of mails older
// than 90 days (decision 0053), so the audit cannot find these links in mail_outbox any more by the time it runs.
import { expect, test } from './fixtures.ts'
import { recordSecrets, secretsOfUrl } from './secrets.ts'

test('the tokens of the links mailed so far are recorded for the log audit', async ({ db }) => {
  const mails = await db.selectFrom('mail_outbox').select('text_body').execute()
  const mailed = mails.flatMap((mail) => (mail.text_body.match(/https?:\/\/\S+/g) ?? []).flatMap(secretsOfUrl))
  // Not vacuous: the run mailed token links (verification, reset, invitations) for the audit to look for.
  expect(mailed.length).toBeGreaterThan(0)
  recordSecrets(new Set(mailed))
})
