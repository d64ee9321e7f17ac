// The registry's scheduled work on a running worker: the daily sweep of unreferenced uploads is stored as a cron
// schedule, and a 'storage.sweep' job deletes an old unreferenced upload while keeping a fresh one.
import { access, mkdtemp, rm, utimes } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningJobs, startJobs } from '../../src-server/jobs/start.ts'
import { createLocalStorage } from '../../src-server/storage/storage.ts'
import { createTestDatabase, type TestDatabase } from '../support/db.ts'
import { captureLog, waitUntil } from '../support/jobs.ts'

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
    env: { MAIL_FROM: 'SkillForge <no-reply@skillforge.example>' },
    log: captureLog().log,
    role: 'worker',
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
  it('stores the daily sweep of unreferenced uploads and the hourly membership schedule as cron schedules', async () => {
    const { rows } = await sql<{
      name: string
      cron: string
    }>`select name, cron from pgboss.schedule order by name`.execute(database.db)
    expect(rows).toEqual([
      { name: 'membership.schedule', cron: '23 * * * *' },
      { name: 'storage.sweep', cron: '17 3 * * *' },
    ])
  })

  it('sweeps: an unreferenced upload older than a day goes, a fresh one stays', async () => {
    await upload('courses/orphan-old.png', new Date(Date.now() - 2 * 24 * 60 * 60 * 1000))
    await upload('courses/orphan-new.png', new Date())
    await jobs.queue.enqueue('storage.sweep', {})
    await waitUntil(async () => !(await exists('courses/orphan-old.png')))
    expect(await exists('courses/orphan-new.png')).toBe(true)
  })
})
