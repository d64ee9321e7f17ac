// Resumable video uploads as production runs them: two web nodes over one database, each with its own tus server on
// the S3 store (@tus/s3-store: a multipart upload in the bucket, the upload's `.info` and a short piece's `.part`
// beside it), against a bucket that speaks S3's multipart API and checks its rules (tests/support/fake-s3.ts). A video
// sent in pieces to either node is stored whole under its lesson key; a piece too short for an S3 part, written on one
// node, is carried on by the other; abandoned uploads leave nothing in the bucket.
import { randomBytes } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sweepAbandonedVideoUploads } from '../../../src-server/flows/creator-video-uploads.ts'
import { type DatabaseHandle, openDatabase } from '../../../src-server/kernel/db.ts'
import { LESSON_VIDEO_PREFIX } from '../../../src-server/storage/keys.ts'
import { createS3TusFiles } from '../../../src-server/storage/tus-store.ts'
import { creatorWithPlan, tusClient, uploadIdOf } from '../../support/creator-uploads.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'
import { type FakeS3, readmeS3Permissions, startFakeS3 } from '../../support/fake-s3.ts'
import { startTestServer, type TestServer } from '../../support/http.ts'

const CREDENTIALS = { accessKeyId: 'AKIDTUSNODES', secretAccessKey: 'tus-nodes-secret', region: 'eu-west-1' }
const BUCKET = 'lesson-uploads'
const MB = 1024 * 1024
/** The browser's piece (VideoUpload.tsx) and the store's part size. */
const PIECE = 8 * MB

let database: TestDatabase
let secondPool: DatabaseHandle | null = null
let bucket: FakeS3
let nodeA: TestServer
let nodeB: TestServer

const s3Env = () => ({
  S3_BUCKET: BUCKET,
  S3_REGION: CREDENTIALS.region,
  S3_ENDPOINT: bucket.endpoint,
  S3_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
  S3_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
})

beforeAll(async () => {
  database = await createTestDatabase()
  // PostgreSQL: node B has its own pool on the same database; PGlite opens in one process only, so both share it.
  secondPool = database.url ? await openDatabase({ databaseUrl: database.url, poolSize: 3 }) : null
  // Granted only what the README tells operators to grant.
  bucket = await startFakeS3({ ...CREDENTIALS, bucket: BUCKET, permissions: readmeS3Permissions() })
  nodeA = await startTestServer(database.db, { env: s3Env() })
  nodeB = await startTestServer(secondPool?.db ?? database.db, { env: s3Env() })
})

afterAll(async () => {
  await nodeA?.stop()
  await nodeB?.stop()
  await secondPool?.close()
  await bucket?.close()
  await database?.close()
})

/** A real MP4 padded with a trailing `free` box to `total` bytes: still judged a valid video. */
async function paddedVideo(total: number): Promise<Buffer> {
  const mp4 = await readFile(path.resolve('public/media/promo-1.mp4'))
  const free = randomBytes(total - mp4.length)
  free.writeUInt32BE(free.length, 0)
  free.write('free', 4, 'ascii')
  return Buffer.concat([mp4, free])
}

const rowOf = (id: string) =>
  database.db.selectFrom('creator_uploads').selectAll().where('id', '=', id).executeTakeFirst()

/** What the bucket holds for a tus upload: its multipart uploads, and its `.info`/`.part` objects. */
function tusLeftovers(id: string) {
  const uploads = [...bucket.uploads.values()].filter((upload) => upload.key === id).length
  const objects = [...bucket.objects.keys()].filter((key) => key.startsWith(id)).sort()
  return { uploads, objects }
}

async function started(client: ReturnType<typeof tusClient>, length: number) {
  const created = await client.create(length)
  expect(created.status, await created.clone().text()).toBe(201)
  return created.headers.get('location') as string
}

async function patched(
  client: ReturnType<typeof tusClient>,
  location: string,
  video: Buffer,
  from: number,
  to: number,
) {
  const response = await client.patch(location, from, video.subarray(from, to))
  expect(response.status, await response.clone().text()).toBe(204)
  expect(response.headers.get('upload-offset')).toBe(String(to))
}

describe('resumable uploads on two nodes over an S3 bucket', () => {
  it('stores a video sent in 8 MB pieces to either node whole under its lesson key, and leaves no tus parts', async () => {
    const { cookie } = await creatorWithPlan(database.db, 'basic')
    const onA = tusClient(nodeA.baseUrl, cookie)
    const onB = tusClient(nodeB.baseUrl, cookie)
    const video = await paddedVideo(2 * PIECE + 3 * MB)
    const location = await started(onA, video.length)
    const id = uploadIdOf(location)

    await patched(onA, location, video, 0, PIECE)
    // The browser's next request reaches the other node: it learns the offset from the bucket, then goes on.
    const head = await onB.head(location)
    expect(head.headers.get('upload-offset')).toBe(String(PIECE))
    await patched(onB, location, video, PIECE, 2 * PIECE)
    await patched(onA, location, video, 2 * PIECE, video.length)

    const row = await rowOf(id)
    expect(row).toMatchObject({ status: 'stored', content_type: 'video/mp4' })
    expect(Number(row?.size_bytes)).toBe(video.length)
    const key = row?.storage_key as string
    expect(key.startsWith(LESSON_VIDEO_PREFIX)).toBe(true)
    const stored = bucket.objects.get(key)
    expect(stored?.body.equals(video)).toBe(true)
    expect(stored?.contentType).toBe('video/mp4')
    expect(stored?.cacheControl).toBe('private, no-store')
    expect(tusLeftovers(id)).toEqual({ uploads: 0, objects: [] })
    // Either node tells a client resuming after a reload that it is complete.
    expect((await onB.head(location)).headers.get('upload-offset')).toBe(String(video.length))
  })

  it('carries on, on one node, a piece too short for an S3 part that the other node kept aside', async () => {
    const { cookie } = await creatorWithPlan(database.db, 'basic')
    const onA = tusClient(nodeA.baseUrl, cookie)
    const onB = tusClient(nodeB.baseUrl, cookie)
    const video = await paddedVideo(PIECE + 2 * MB)
    const location = await started(onA, video.length)
    const id = uploadIdOf(location)

    // 3 MB (a connection cut short, a slow phone's smaller piece): below S3's 5 MB part, kept as `<id>.part`.
    await patched(onA, location, video, 0, 3 * MB)
    expect(tusLeftovers(id).objects).toEqual([`${id}.info`, `${id}.part`])
    expect((await onB.head(location)).headers.get('upload-offset')).toBe(String(3 * MB))
    await patched(onB, location, video, 3 * MB, video.length)

    const row = await rowOf(id)
    expect(row?.status).toBe('stored')
    expect(bucket.objects.get(row?.storage_key as string)?.body.equals(video)).toBe(true)
    expect(tusLeftovers(id)).toEqual({ uploads: 0, objects: [] })
  })

  it('sweeps abandoned uploads from the bucket: their multipart upload, its parts and the tus objects', async () => {
    const { cookie } = await creatorWithPlan(database.db, 'basic')
    const onA = tusClient(nodeA.baseUrl, cookie)
    const video = await paddedVideo(PIECE + 2 * MB)
    const abandoned = uploadIdOf(await started(onA, video.length))
    // A part in the multipart upload, and 1 MB kept aside as `.part`.
    await patched(onA, `/api/uploads/tus/${abandoned}`, video, 0, PIECE + MB)
    expect(tusLeftovers(abandoned)).toEqual({ uploads: 1, objects: [`${abandoned}.info`, `${abandoned}.part`] })
    const fresh = uploadIdOf(await started(onA, video.length))
    await database.db
      .updateTable('creator_uploads')
      .set({ created_at: sql`now() - interval '25 hours'` })
      .where('id', '=', abandoned)
      .execute()
    // An upload the bucket holds with no row (a node stopped between the two): only its age tells it is abandoned.
    const orphan = uploadIdOf(await started(onA, video.length))
    await database.db.deleteFrom('creator_uploads').where('id', '=', orphan).execute()
    for (const upload of bucket.uploads.values()) {
      if (upload.key === orphan) upload.initiated = new Date(Date.now() - 25 * 60 * 60 * 1000)
    }

    const tus = createS3TusFiles({ ...CREDENTIALS, bucket: BUCKET, endpoint: bucket.endpoint })
    expect(await sweepAbandonedVideoUploads(database.db, tus)).toBeGreaterThanOrEqual(2)
    expect(await rowOf(abandoned)).toBeUndefined()
    expect(tusLeftovers(abandoned)).toEqual({ uploads: 0, objects: [] })
    expect(tusLeftovers(orphan)).toEqual({ uploads: 0, objects: [] })
    expect((await rowOf(fresh))?.status).toBe('uploading')
    expect(tusLeftovers(fresh)).toEqual({ uploads: 1, objects: [`${fresh}.info`] })
    // The bucket refused nothing the store asked of it (a 404 is an answer: a `.part` or an upload not there).
    expect(bucket.log.filter((entry) => entry.status >= 400 && entry.status !== 404)).toEqual([])
  })
})
