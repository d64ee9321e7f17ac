// The last check of an end-to-end run (project 'log-audit' in playwright.config.ts, after all the others): the
// server's whole log (E2E_LOG_FILE) holds none of the passwords and tokens the run used (issue 27). After a few
// specs only (`--no-deps`, the specs, then this file), one of them must open a token link (accounts.spec.ts does).
import { readFileSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import { expect, test } from './fixtures.ts'
import { readRecordedSecrets, secretsOfUrl } from './secrets.ts'

/** Shorter values could occur in a log by chance (a status, a word). */
const MIN_SECRET_LENGTH = 6
/**
 * A one-time code of an authenticator app (six to eight digits) is sought only as a field's value ("code":"123456",
 * code=123456): six digits alone occur by chance in any log (times, sizes). Recovery codes and the TOTP key that
 * the two-factor spec records are long and sought like passwords.
 */
const ONE_TIME_CODE = /^\d{6,8}$/

test('the server log holds no password or token the run used', async ({ db }) => {
  // The server writes its log in batches at least once a second (src-server/kernel/log.ts).
  await sleep(1500)
  const log = readFileSync(process.env.E2E_LOG_FILE as string, 'utf8')
  // The log really is the server's access log (info level), not an empty file.
  expect(log.split('\n').filter((line) => line.includes('"msg":"request"')).length).toBeGreaterThan(0)

  const mails = await db.selectFrom('mail_outbox').select('text_body').execute()
  const mailed = mails.flatMap((mail) => (mail.text_body.match(/https?:\/\/\S+/g) ?? []).flatMap(secretsOfUrl))
  const recorded = [...readRecordedSecrets(), ...mailed, process.env.E2E_ADMIN_PASSWORD ?? '']
  const secrets = new Set(
    recorded.filter((secret) => secret.length >= MIN_SECRET_LENGTH && !ONE_TIME_CODE.test(secret)),
  )
  // As typed, and as a URL or a JSON string would carry it.
  const leaked = [...secrets].filter((secret) =>
    [secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)].some((form) => log.includes(form)),
  )
  for (const code of new Set(recorded.filter((secret) => ONE_TIME_CODE.test(secret)))) {
    if ([`"code":"${code}"`, `code=${code}`, `"code\\":\\"${code}`].some((form) => log.includes(form)))
      leaked.push(code)
  }
  expect(leaked).toEqual([])
  // Not vacuous: the run opened token links and their tokens were redacted in the log. (The links mailed before the
  // clock specs were recorded by mail-snapshot.check.ts, which checks there were some: by now retention may have
  // deleted those mails.)
  expect(log.includes('[redacted]'), 'the log has a [redacted] value').toBe(true)
})
