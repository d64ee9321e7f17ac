// The store's latency on the embedded database while an SMTP server accepts connections and never answers
// (issue 18): the real server runs in a child process with mail in its outbox; catalog.search is timed over HTTP.
// Prints the same figures with no SMTP server configured, as a baseline.
// Usage: npx tsx scripts/bench-mail-hang.ts [requests] [concurrency]
import { measureStoreWhileSmtpHangs } from '../tests/support/smtp-hang.ts'

const requests = Number(process.argv[2] ?? 300)
const concurrency = Number(process.argv[3] ?? 4)

const hanging = await measureStoreWhileSmtpHangs({ requests, concurrency, smtp: 'silent' })
const baseline = await measureStoreWhileSmtpHangs({ requests, concurrency, smtp: 'none' })
const row = (label: string, m: typeof hanging) =>
  `${label.padEnd(24)} ${String(m.p50).padStart(8)} ${String(m.p95).padStart(8)} ${String(m.p99).padStart(8)} ${String(m.max).padStart(8)}`
console.log(`catalog.search over HTTP, ${requests} requests, ${concurrency} at a time, embedded database (ms)`)
console.log(`${''.padEnd(24)} ${'p50'.padStart(8)} ${'p95'.padStart(8)} ${'p99'.padStart(8)} ${'max'.padStart(8)}`)
console.log(row('SMTP silent (mail stuck)', hanging))
console.log(row('no SMTP (baseline)', baseline))
if (!hanging.smtpHungThroughout) console.log('note: the SMTP connection did not stay stuck for the whole run')
