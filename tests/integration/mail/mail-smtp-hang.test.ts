// Issue 18 (storage and mail, 5): with an SMTP server that accepts the connection and never answers, the store
// on the embedded database stays responsive. The real server runs with mail waiting in its outbox; catalogue
// requests are timed over HTTP while its worker is stuck on that server (scripts/bench-mail-hang.ts prints it).
import { readFile } from 'node:fs/promises'
import { describe, expect, inject, it } from 'vitest'
import { measureStoreWhileSmtpHangs } from '../../support/smtp-hang.ts'

const testDb = inject('testDb')

describe.runIf(testDb.kind === 'pglite')('the store while SMTP hangs (embedded database)', () => {
  it('answers catalogue requests at a normal pace', { timeout: 180_000 }, async () => {
    const dump = testDb.kind === 'pglite' ? new Blob([await readFile(testDb.templateDumpPath)]) : undefined
    const result = await measureStoreWhileSmtpHangs({ dump, requests: 200, concurrency: 4 })
    console.info('catalog.search while SMTP hangs (ms):', result)
    expect(result.smtpHungThroughout).toBe(true)
    expect(result.requests).toBe(200)
    // Normally tens of milliseconds, a few hundred with the end-to-end suite running beside it on two cores. A
    // transaction held open across the SMTP conversation holds every request for as long as the server stays silent
    // (the whole measurement): tens of seconds.
    expect(result.p99).toBeLessThan(3000)
  })
})
