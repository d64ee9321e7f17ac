// Adaptive video on an S3 bucket, as production stores it (decision 0064): the transcode job reads the original from
// the bucket, stores its playlists, rendition and poster beside it under private/ (the bucket keeps that prefix closed
// to anonymous reads), and the lesson's routes serve them to a buyer with the app's signed, ranged reads.
// Needs ffmpeg (skipped, and said so, on a machine without it).
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SESSION_COOKIE } from '../../../src-server/auth/session.ts'
import { transcodeUpload } from '../../../src-server/flows/video-transcoding.ts'
import { findFfmpeg } from '../../../src-server/storage/ffmpeg.ts'
import { createS3Storage } from '../../../src-server/storage/s3.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'
import { createSessionToken } from '../../support/factories.ts'
import { type FakeS3, readmeS3Permissions, startFakeS3 } from '../../support/fake-s3.ts'
import { startTestServer, type TestServer } from '../../support/http.ts'
import { buyerOfCourse } from '../../support/learning.ts'
import { lessonWithQueuedVideo, makeTestVideo } from '../../support/test-video.ts'

const CREDENTIALS = { accessKeyId: 'AKIDHLS', secretAccessKey: 'hls-secret', region: 'eu-west-1' }
const BUCKET = 'lesson-media'
const COURSE = 'modern-react-typescript'
const KEY = 'private/lessons/videos/s3-hls-0001.mp4'
const PREFIX = 'private/lessons/videos/s3-hls-0001-hls/'
const tools = findFfmpeg()
const log = { info() {}, warn() {}, error() {}, debug() {} } as never

let database: TestDatabase
let bucket: FakeS3
let server: TestServer
let lessonId = ''
let buyerCookie = ''
let transcoded = ''

const storageOptions = () => ({ ...CREDENTIALS, bucket: BUCKET, endpoint: bucket.endpoint })
const get = (url: string, headers: Record<string, string> = {}) =>
  fetch(`${server.baseUrl}${url}`, { headers: { cookie: buyerCookie, ...headers } })

beforeAll(async () => {
  if (!tools) return
  database = await createTestDatabase()
  bucket = await startFakeS3({
    ...CREDENTIALS,
    bucket: BUCKET,
    privatePrefixes: ['private/'],
    permissions: readmeS3Permissions(),
  })
  server = await startTestServer(database.db, {
    env: {
      S3_BUCKET: BUCKET,
      S3_REGION: CREDENTIALS.region,
      S3_ENDPOINT: bucket.endpoint,
      S3_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
    },
  })
  // 2 s of 640×360 test picture with a tone, made here and put in the bucket as an upload stores it.
  const work = await mkdtemp(path.join(tmpdir(), 's3-hls-'))
  try {
    const file = path.join(work, 'original.mp4')
    makeTestVideo(tools.ffmpeg, file)
    await createS3Storage(storageOptions()).put(KEY, await readFile(file), 'video/mp4')
  } finally {
    await rm(work, { recursive: true, force: true })
  }
  ;({ lessonId } = await lessonWithQueuedVideo(database.db, COURSE, {
    id: 's3hls0001',
    key: KEY,
    sizeBytes: bucket.objects.get(KEY)?.body.length ?? 0,
  }))
  const { user } = await buyerOfCourse(database.db, COURSE)
  buyerCookie = `${SESSION_COOKIE}=${(await createSessionToken(database.db, user.id)).token}`
  transcoded = await transcodeUpload(
    { db: database.db, storage: createS3Storage(storageOptions()), log, ffmpeg: tools },
    's3hls0001',
  )
}, 120_000)

afterAll(async () => {
  await server?.stop()
  await bucket?.close()
  await database?.close()
})

describe.skipIf(!tools)('HLS renditions on an S3 bucket', () => {
  it('stores the playlists, rendition and poster beside the original, private to the app', () => {
    expect(transcoded).toBe('ready')
    const stored = [...bucket.objects.keys()].filter((key) => key.startsWith(PREFIX)).sort()
    expect(stored).toEqual(['360p/index.m3u8', '360p/stream.mp4', 'master.m3u8', 'poster.jpg'].map((f) => PREFIX + f))
    for (const key of stored) expect(bucket.objects.get(key)?.cacheControl, key).toBe('private, no-store')
    expect(bucket.objects.get(`${PREFIX}360p/stream.mp4`)?.contentType).toBe('video/mp4')
  })

  it('serves them to a buyer from the bucket: playlists whole, the rendition by byte ranges', async () => {
    const master = await get(`/api/learn/hls/${lessonId}/master.m3u8`)
    expect(master.status).toBe(200)
    expect(await master.text()).toBe(bucket.objects.get(`${PREFIX}master.m3u8`)?.body.toString())
    const variant = await (await get(`/api/learn/hls/${lessonId}/360p/index.m3u8`)).text()
    // The first segment as the player asks for it: the byte range its playlist names.
    const range = /#EXT-X-BYTERANGE:(\d+)@(\d+)/.exec(variant)
    expect(range).not.toBeNull()
    const [length, offset] = [Number(range?.[1]), Number(range?.[2])]
    const segment = await get(`/api/learn/hls/${lessonId}/360p/stream.mp4`, {
      range: `bytes=${offset}-${offset + length - 1}`,
    })
    expect(segment.status).toBe(206)
    const rendition = bucket.objects.get(`${PREFIX}360p/stream.mp4`)?.body as Buffer
    expect(Buffer.from(await segment.arrayBuffer()).equals(rendition.subarray(offset, offset + length))).toBe(true)
    const poster = await get(`/api/learn/hls/${lessonId}/poster.jpg`)
    expect([...new Uint8Array(await poster.arrayBuffer()).subarray(0, 2)]).toEqual([0xff, 0xd8])
    // The bucket keeps them from anyone reading it directly.
    expect((await fetch(`${bucket.endpoint}/${BUCKET}/${PREFIX}master.m3u8`)).status).toBe(403)
  })
})
