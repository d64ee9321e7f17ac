// A webhook delivery whose job ended without settling it is not lost (decision 0061): the job worker runs on the
// real queue against a database that a test makes fail (a failover under the handler's first read) or hang (a worker
// stuck past the job's expiry). Nothing is counted that was not POSTed, the delivery is sent exactly once when the
// database is back, and a stuck worker that wakes up after another took the delivery over sends nothing. A node
// POSTs several deliveries at once.
import { sql } from 'kysely'
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest'
import { type JobsTuning, type RunningJobs, startJobs } from '../../../src-server/jobs/start.ts'
import * as clock from '../../../src-server/kernel/clock.ts'
import type { DB } from '../../../src-server/kernel/db.ts'
import { retryDelaySeconds } from '../../../src-server/webhooks/deliveries.ts'
import { createCreator } from '../../support/creator-courses.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'
import { callerAs } from '../../support/factories.ts'
import { faultyDatabase, type Statement } from '../../support/faulty-db.ts'
import { captureLog, emptyUploads, waitUntil } from '../../support/jobs.ts'
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver.ts'

let database: TestDatabase
let receiver: WebhookReceiver
const running: RunningJobs[] = []

beforeAll(async () => {
  database = await createTestDatabase()
  receiver = await startWebhookReceiver()
})
afterEach(async () => {
  clock.resetClock()
  await Promise.all(running.splice(0).map((jobs) => jobs.stop()))
})
afterAll(async () => {
  await receiver?.close()
  await database?.close()
})

/** A job worker (relays every 200 ms, a dead worker's job noticed within a second) working through `db`. */
async function startWorker(db: DB, queues: JobsTuning['queues'] = {}) {
  const jobs = await startJobs({
    db,
    pglite: database.pglite,
    databaseUrl: database.url,
    env: { SMTP_URL: '', MAIL_FROM: 'SkillForge <no-reply@skillforge.example>' },
    log: captureLog().log,
    storage: emptyUploads(),
    ffmpeg: null,
    tuning: { relayIntervalMs: 200, superviseSeconds: 1, queues },
  })
  running.push(jobs)
  return jobs
}

/** A test event to a new Enterprise school's endpoint at the receiver, due now: its delivery and event ids. */
async function testDelivery() {
  const owner = await createCreator(database.db, { plan: 'enterprise' })
  const caller = await callerAs(database.db, owner)
  const { id: endpointId } = await caller.webhooks.create({
    url: receiver.url,
    description: 'CRM',
    eventTypes: ['order.paid'],
    password: owner.password,
  } as never)
  const { deliveryId } = await caller.webhooks.sendTest({ endpointId })
  const { event_id } = await row(deliveryId)
  return { deliveryId, eventId: event_id }
}

function row(deliveryId: string) {
  return database.db
    .selectFrom('webhook_deliveries')
    .select(['event_id', 'job_id', 'attempts', 'next_attempt_at', 'last_error', 'delivered_at', 'failed_at'])
    .where('id', '=', deliveryId)
    .executeTakeFirstOrThrow()
}

async function jobState(jobId: string) {
  const { rows } = await sql<{ state: string }>`select state from pgboss.job where id = ${jobId}::uuid`.execute(
    database.db,
  )
  return rows[0]?.state ?? 'gone'
}

const receivedOf = (eventId: string) => receiver.received.filter((message) => message.headers['webhook-id'] === eventId)

/** The handler's first read: the delivery with its body (the relay reads ids only). */
const handlerRead = (statement: Statement) =>
  statement.kind === 'select' && statement.table === 'webhook_deliveries' && statement.selects.includes('payload')

/** The handler's claim of an attempt, just before its POST (it counts the attempt). */
const attemptClaim = (statement: Statement) =>
  statement.kind === 'update' && statement.table === 'webhook_deliveries' && 'attempts' in statement.sets

describe('a delivery job that fails before its POST', { timeout: 90_000 }, () => {
  it('while the database is down: nothing sent or counted; sent once when it is back', async () => {
    const faults = faultyDatabase(database.db)
    await startWorker(faults.db)
    // The handler's first read meets a database failing over, which stays down for the worker for a while: the
    // release of the row fails too, and the job fails.
    const failed = faults.failNext(handlerRead, { thenDown: true })
    const { deliveryId, eventId } = await testDelivery()
    await failed
    const { job_id: jobId } = await row(deliveryId)
    expect(jobId).toMatch(/^[0-9a-f-]{36}$/)
    await waitUntil(async () => (await jobState(jobId!)) === 'failed')
    expect(await row(deliveryId)).toMatchObject({ job_id: jobId, attempts: 0, delivered_at: null, failed_at: null })

    faults.down = false
    await waitUntil(async () => (await row(deliveryId)).delivered_at !== null)
    await new Promise((resolve) => setTimeout(resolve, 1000)) // a second POST would have arrived by now
    expect(receivedOf(eventId)).toHaveLength(1)
    expect(await row(deliveryId)).toMatchObject({ job_id: null, attempts: 1, failed_at: null })
  })

  it('when the database answers again at once: released without an attempt, sent once after the back-off', async () => {
    const faults = faultyDatabase(database.db)
    await startWorker(faults.db)
    const failed = faults.failNext(handlerRead)
    const { deliveryId, eventId } = await testDelivery()
    await failed
    await waitUntil(async () => (await row(deliveryId)).job_id === null)
    const released = await row(deliveryId)
    expect(released).toMatchObject({ attempts: 0, delivered_at: null, failed_at: null })
    expect(released.last_error).toContain('ECONNRESET')
    // The wait a failed first attempt would have brought.
    const wait = (released.next_attempt_at!.getTime() - clock.nowMs()) / 1000
    expect(wait).toBeGreaterThan(retryDelaySeconds(1) - 5)
    expect(wait).toBeLessThanOrEqual(retryDelaySeconds(1))
    expect(receivedOf(eventId)).toHaveLength(0)

    await clock.advanceClock(retryDelaySeconds(1))
    await waitUntil(async () => (await row(deliveryId)).delivered_at !== null)
    await new Promise((resolve) => setTimeout(resolve, 1000))
    expect(receivedOf(eventId)).toHaveLength(1)
    expect(await row(deliveryId)).toMatchObject({ job_id: null, attempts: 1, last_error: null })
  })
})

describe('a delivery job that expires while its worker is stuck', { timeout: 120_000 }, () => {
  it('is sent once by the next worker, and the stuck one sends nothing when it wakes', async () => {
    const stuck = faultyDatabase(database.db)
    const first = await startWorker(stuck.db, { 'webhooks.deliver': { expireInSeconds: 1 } })
    const hold = stuck.holdNext(handlerRead)
    const { deliveryId, eventId } = await testDelivery()
    await hold.reached
    const { job_id: jobId } = await row(deliveryId)
    // The queue gives up on the job after its second; the row still names it, with nothing sent or counted.
    await waitUntil(async () => (await jobState(jobId!)) === 'failed')
    expect(await row(deliveryId)).toMatchObject({ attempts: 0, delivered_at: null, failed_at: null })
    // That worker goes away with its handler still stuck; another takes over.
    await first.stop()
    running.splice(running.indexOf(first), 1)
    await startWorker(database.db)
    await waitUntil(async () => (await row(deliveryId)).delivered_at !== null)
    expect(receivedOf(eventId)).toHaveLength(1)

    // The stuck handler wakes with its stale read: its claim finds the row no longer its job's, and it sends nothing.
    const claimed = stuck.seen(attemptClaim)
    hold.release()
    await claimed
    await new Promise((resolve) => setTimeout(resolve, 1000))
    expect(receivedOf(eventId)).toHaveLength(1)
    expect(await row(deliveryId)).toMatchObject({ attempts: 1, job_id: null, failed_at: null })
  })
})

describe.runIf(inject('testDb').kind === 'postgres')('two workers at once', { timeout: 120_000 }, () => {
  it('send each delivery once, those released or taken again after a failed job too', async () => {
    const [one, two] = [faultyDatabase(database.db), faultyDatabase(database.db)]
    await Promise.all([startWorker(one.db), startWorker(two.db)])
    // One worker's read fails twice with the database answering again at once (released); the other's meets a
    // failover that lasts a second for it (its job fails, and the relays take the row again).
    const failures = [
      one.failNext(handlerRead),
      one.failNext(handlerRead),
      two.failNext(handlerRead, { thenDown: true }),
    ]
    const deliveries = await Promise.all(Array.from({ length: 12 }, () => testDelivery()))
    await Promise.all(failures)
    setTimeout(() => {
      two.down = false
    }, 1000)
    const settled = async () => {
      const rows = await Promise.all(deliveries.map(({ deliveryId }) => row(deliveryId)))
      return rows.every((delivery) => delivery.delivered_at !== null || delivery.job_id === null)
    }
    await waitUntil(settled, 40_000)
    await clock.advanceClock(retryDelaySeconds(1)) // the released ones are due again
    await waitUntil(async () => {
      const rows = await Promise.all(deliveries.map(({ deliveryId }) => row(deliveryId)))
      return rows.every((delivery) => delivery.delivered_at !== null)
    }, 40_000)
    await new Promise((resolve) => setTimeout(resolve, 1500)) // a second POST of any would have arrived by now
    for (const { deliveryId, eventId } of deliveries) {
      expect(receivedOf(eventId)).toHaveLength(1)
      expect(await row(deliveryId)).toMatchObject({ attempts: 1, job_id: null, failed_at: null })
    }
  })
})

describe('slow receivers', { timeout: 60_000 }, () => {
  // One worker POSTed one delivery at a time: a receiver that never answers held every school's webhooks for 5 s each.
  it('a node POSTs four deliveries at once', async () => {
    receiver.hold = true
    try {
      const before = receiver.received.length
      for (const _ of [1, 2, 3, 4]) await testDelivery()
      await startWorker(database.db)
      await waitUntil(async () => receiver.waiting === 4, 20_000)
      expect(receiver.received.length - before).toBe(4)
    } finally {
      receiver.hold = false
    }
  })
})
