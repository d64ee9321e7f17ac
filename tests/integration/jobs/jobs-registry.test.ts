// The registry's scheduled work on a running worker: the daily sweep of unreferenced uploads, the service-order
// auto-completion and the expiry of abandoned checkouts are stored as cron schedules; a 'storage.sweep' job deletes
// an old unreferenced upload while keeping a fresh one; a 'service-orders.auto-complete' job completes deliveries
// older than SERVICE_ORDER_AUTO_COMPLETE_DAYS.
import { access, mkdtemp, rm, utimes } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningJobs, startJobs } from '../../../src-server/jobs/start.ts'
import { createLocalStorage } from '../../../src-server/storage/storage.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'
import { createUser } from '../../support/factories.ts'
import { captureLog, waitUntil } from '../../support/jobs.ts'
import { paidServiceOrder } from '../../support/service-orders.ts'

let database: TestDatabase
let uploadsDir: string
let jobs: RunningJobs

beforeAll(async () => {
  database = await createTestDatabase()
  uploadsDir = await mkdtemp(path.join(os.tmpdir(), 'jobs-registry-uploads-'))
  jobs = await startJobs({
    db: database.db,
    pglite: database.pglite,
    databaseUrl: database.url,
    storage: createLocalStorage(uploadsDir),
    env: { MAIL_FROM: 'SkillForge <no-reply@skillforge.example>', SERVICE_ORDER_AUTO_COMPLETE_DAYS: 5 },
    log: captureLog().log,
  })
})
afterAll(async () => {
  await jobs?.stop()
  await database?.close()
  await rm(uploadsDir, { recursive: true, force: true })
})

const exists = (key: string) =>
  access(path.join(uploadsDir, key)).then(
    () => true,
    () => false,
  )

async function upload(key: string, modified: Date) {
  const storage = createLocalStorage(uploadsDir)
  await storage.put(key, Buffer.from('not referenced by any row'), 'image/png')
  await utimes(path.join(uploadsDir, key), modified, modified)
}

describe('scheduled work', () => {
  it('stores every schedule of the registry as a cron schedule', async () => {
    const { rows } = await sql<{ name: string; cron: string }>`select name, cron from pgboss.schedule
      order by name`.execute(database.db)
    expect(rows).toEqual([
      { name: 'account.stripe-email', cron: '4-59/5 * * * *' },
      { name: 'analytics.rollup', cron: '11 * * * *' },
      { name: 'cart-reminders.send', cron: '2-59/5 * * * *' },
      { name: 'domains.recheck', cron: '29 3-23/6 * * *' },
      { name: 'earnings.payouts', cron: '0 6 1 * *' },
      { name: 'earnings.premium-pool', cron: '0 5 1 * *' },
      { name: 'earnings.processor-fees', cron: '*/15 * * * *' },
      { name: 'earnings.release-holds', cron: '41 * * * *' },
      { name: 'gifts.send', cron: '*/5 * * * *' },
      { name: 'learning.drip-unlocks', cron: '37 * * * *' },
      { name: 'learning.question-digest', cron: '0 7 * * *' },
      { name: 'live-chat.to-inbox', cron: '3-58/5 * * * *' },
      { name: 'live.reminders', cron: '*/5 * * * *' },
      { name: 'membership.schedule', cron: '23 * * * *' },
      { name: 'messages.digest', cron: '10 7 * * *' },
      { name: 'orders.expire', cron: '*/15 * * * *' },
      { name: 'privacy.account-deletions', cron: '11 * * * *' },
      { name: 'privacy.exports', cron: '* * * * *' },
      { name: 'privacy.retention', cron: '23 4 * * *' },
      { name: 'quizzes.close-expired', cron: '*/15 * * * *' },
      { name: 'service-orders.auto-complete', cron: '*/15 * * * *' },
      { name: 'sso.domain-recheck', cron: '29 */6 * * *' },
      { name: 'storage.sweep', cron: '17 3 * * *' },
    ])
  })

  it('auto-completes deliveries older than the configured days, through the queue', async () => {
    const buyer = await createUser(database.db)
    const [old, recent] = [await paidServiceOrder(database.db, buyer.id), await paidServiceOrder(database.db, buyer.id)]
    const deliveredAt = (days: number) => new Date(Date.now() - days * 24 * 60 * 60 * 1000)
    for (const [id, days] of [
      [old, 6],
      [recent, 4],
    ] as const) {
      await database.db
        .updateTable('service_orders')
        .set({ status: 'delivered', delivered_at: deliveredAt(days) })
        .where('id', '=', id)
        .execute()
    }
    await jobs.queue.enqueue('service-orders.auto-complete', {})
    const statusOf = async (id: string) =>
      (await database.db.selectFrom('service_orders').select('status').where('id', '=', id).executeTakeFirstOrThrow())
        .status
    await waitUntil(async () => (await statusOf(old)) === 'completed')
    // Five days configured: four days old stays delivered.
    expect(await statusOf(recent)).toBe('delivered')
  })

  it('sweeps: an unreferenced upload older than a day goes, a fresh one stays', async () => {
    await upload('courses/orphan-old.png', new Date(Date.now() - 2 * 24 * 60 * 60 * 1000))
    await upload('courses/orphan-new.png', new Date())
    await jobs.queue.enqueue('storage.sweep', {})
    await waitUntil(async () => !(await exists('courses/orphan-old.png')))
    expect(await exists('courses/orphan-new.png')).toBe(true)
  })
})
