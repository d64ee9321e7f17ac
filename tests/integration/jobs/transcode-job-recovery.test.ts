// A lesson video's transcode whose job ended without settling its row is not left 'queued' or 'processing' for good
// (decision 0064): the job worker runs on the real queue against a database that a test makes fail (a failover under
// the job's first write) or hang (a worker stuck past the job's expiry), with the job's last try as its only one.
import { sql } from 'kysely'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { insertStaffUpload } from '../../../src-server/creators/upload-rows.ts'
import { type JobsTuning, type RunningJobs, startJobs } from '../../../src-server/jobs/start.ts'
import type { DB } from '../../../src-server/kernel/db.ts'
import type { Ffmpeg } from '../../../src-server/storage/ffmpeg.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'
import { createUser } from '../../support/factories.ts'
import { faultyDatabase, type Statement } from '../../support/faulty-db.ts'
import { captureLog, emptyUploads, waitUntil } from '../../support/jobs.ts'

let database: TestDatabase
const running: RunningJobs[] = []

beforeAll(async () => {
  database = await createTestDatabase()
})
afterEach(async () => {
  await Promise.all(running.splice(0).map((jobs) => jobs.stop()))
})
afterAll(async () => {
  await database?.close()
})

/** A job worker working through `db`; a transcode gets one try (as if on its last), relays run every 200 ms. */
async function startWorker(db: DB, ffmpeg: Ffmpeg | null, queues: JobsTuning['queues'] = {}) {
  const jobs = await startJobs({
    db,
    pglite: database.pglite,
    databaseUrl: database.url,
    env: { SMTP_URL: '', MAIL_FROM: 'SkillForge <no-reply@skillforge.example>' },
    log: captureLog().log,
    storage: emptyUploads(),
    ffmpeg,
    tuning: {
      relayIntervalMs: 200,
      superviseSeconds: 1,
      queues: { ...queues, 'video.transcode': { retryLimit: 0, ...queues['video.transcode'] } },
    },
  })
  running.push(jobs)
  return jobs
}

/** A stored lesson video waiting for its transcode (its original need not exist: no try gets that far). */
async function storedVideo() {
  const staff = await createUser(database.db)
  return insertStaffUpload(database.db, {
    userId: staff.id,
    storageKey: `private/lessons/videos/recovery-${Math.random().toString(36).slice(2)}.mp4`,
    sizeBytes: 1000,
    durationSeconds: 2,
    contentType: 'video/mp4',
    fileName: 'lesson.mp4',
  })
}

function upload(id: string) {
  return database.db
    .selectFrom('creator_uploads')
    .select(['transcode_status', 'transcode_job_id'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
}

async function jobState(jobId: string) {
  const { rows } = await sql<{ state: string }>`select state from pgboss.job where id = ${jobId}::uuid`.execute(
    database.db,
  )
  return rows[0]?.state ?? 'gone'
}

const setsStatus = (status: string) => (statement: Statement) =>
  statement.kind === 'update' && statement.table === 'creator_uploads' && statement.sets.transcode_status === status

describe('a transcode job that ends without settling its upload', { timeout: 90_000 }, () => {
  it('whose only try failed before it began (the database failing over) gets a new job once the database is back', async () => {
    const faults = faultyDatabase(database.db)
    // Without ffmpeg the job's first write marks the upload 'unavailable': that write meets the failover.
    await startWorker(faults.db, null)
    const failed = faults.failNext(setsStatus('unavailable'), { thenDown: true })
    const id = await storedVideo()
    await failed
    const { transcode_job_id: jobId } = await upload(id)
    await waitUntil(async () => (await jobState(jobId!)) === 'failed')
    expect(await upload(id)).toEqual({ transcode_status: 'queued', transcode_job_id: jobId })

    faults.down = false
    await waitUntil(async () => (await upload(id)).transcode_status === 'unavailable')
    expect((await upload(id)).transcode_job_id).not.toBe(jobId)
  })

  it('whose last try expired with its worker stuck is marked failed, not left processing', async () => {
    const stuck = faultyDatabase(database.db)
    // Tools that cannot run: a try that got past its start fails, and the last one marks the upload failed.
    const tools = { ffmpeg: '/nonexistent/ffmpeg', ffprobe: '/nonexistent/ffprobe' }
    await startWorker(stuck.db, tools, { 'video.transcode': { expireInSeconds: 1 } })
    const hold = stuck.holdNext(setsStatus('processing'))
    const id = await storedVideo()
    await hold.reached
    const { transcode_job_id: jobId } = await upload(id)
    expect((await upload(id)).transcode_status).toBe('processing')
    await waitUntil(async () => (await jobState(jobId!)) === 'failed')
    // The studio stops saying "processing" (and lets the course be submitted); the original keeps playing.
    await waitUntil(async () => (await upload(id)).transcode_status === 'failed')

    // The stuck try wakes up, fails on its tools and leaves the upload failed.
    const ended = stuck.seen((statement) => setsStatus('failed')(statement) && statement.values.includes(id))
    hold.release()
    await ended
    expect(await upload(id)).toEqual({ transcode_status: 'failed', transcode_job_id: jobId })
  })
})
