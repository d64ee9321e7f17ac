// How fast a burst of mail leaves (decision 0148): a live session announced to a course's holders (bulk mail), then
// one person signs up and waits for their verification link. On the embedded database with a local SMTP server that
// accepts everything, the worker starts with the whole burst waiting; printed: when the verification link was sent and
// when the last mail was, with the registry's senders and with one sender (how it was before).
// Usage: npm run bench:mail-burst [-- --mails 120]
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { migrateToLatest } from '../db/migrate.ts'
import { concurrency } from '../src-server/jobs/registry.ts'
import { startJobs } from '../src-server/jobs/start.ts'
import { openDatabase } from '../src-server/kernel/db.ts'
import { startFakeSmtp } from '../tests/support/fake-smtp.ts'
import { captureLog, emptyUploads, queueBurstThenVerification } from '../tests/support/jobs.ts'

const { values } = parseArgs({ options: { mails: { type: 'string', default: '120' } } })
const mails = Number(values.mails)

async function burst(senders: number) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-mail-burst-'))
  const database = await openDatabase({ dataDir: dir })
  const smtp = await startFakeSmtp('accept')
  try {
    await migrateToLatest(database.db)
    const verification = await queueBurstThenVerification(database.db, mails)
    const started = performance.now()
    const jobs = await startJobs({
      db: database.db,
      pglite: database.pglite,
      env: { SMTP_URL: smtp.url, MAIL_FROM: 'SkillForge <no-reply@skillforge.example>' },
      log: captureLog().log,
      storage: emptyUploads(),
      ffmpeg: null,
      tuning: { workers: { 'mail.send': { localConcurrency: senders } } },
    })
    let verifiedAt = 0
    try {
      await smtp.waitFor(() => {
        if (!verifiedAt && smtp.deliveries.some((d) => d.to.includes('<newcomer@example.com>'))) {
          verifiedAt = performance.now()
        }
        return smtp.deliveries.length === mails + 1
      }, 600_000)
    } finally {
      await jobs.stop()
    }
    const sentAt = await database.db
      .selectFrom('mail_outbox')
      .select('status')
      .where('id', '=', verification)
      .executeTakeFirstOrThrow()
    if (sentAt.status !== 'sent') throw new Error(`the verification mail is ${sentAt.status}`)
    return { verification: (verifiedAt - started) / 1000, all: (performance.now() - started) / 1000 }
  } finally {
    await smtp.close()
    await database.close()
    await rm(dir, { recursive: true, force: true })
  }
}

const senders = concurrency['mail.send']?.localConcurrency ?? 1
console.log(
  `${mails} bulk mails, then one verification link; embedded database, local SMTP (seconds from worker start)`,
)
console.log(`${'senders'.padEnd(28)} ${'verification sent'.padStart(18)} ${'all sent'.padStart(10)}`)
for (const [label, count] of [
  [`${senders} (the registry's)`, senders],
  ['1 (as before decision 0148)', 1],
] as const) {
  const figures = await burst(count)
  console.log(
    `${label.padEnd(28)} ${figures.verification.toFixed(1).padStart(18)} ${figures.all.toFixed(1).padStart(10)}`,
  )
}
