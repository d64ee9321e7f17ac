// Adaptive video (decision 0064): a stored upload is relayed onto the queue once, its job transcodes a tiny generated
// video into HLS renditions and a poster stored beside the original with its progress reaching 100, and every
// playlist, segment and poster passes the lesson's access check; the original is the uploader's download only.
// Needs ffmpeg (skipped, and said so, on a machine without it).
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SESSION_COOKIE } from '../../../src-server/auth/session.ts'
import { lessonsWithVideoProcessing } from '../../../src-server/creators/upload-rows.ts'
import { relayTranscodes, transcodeUpload } from '../../../src-server/flows/video-transcoding.ts'
import { findFfmpeg } from '../../../src-server/storage/ffmpeg.ts'
import { createLocalStorage } from '../../../src-server/storage/storage.ts'
import { createSessionToken, createUser, type TestUser } from '../../support/factories.ts'
import { buyerOfCourse } from '../../support/learning.ts'
import { serveForThisFile } from '../../support/test-server.ts'
import { lessonWithQueuedVideo, makeTestVideo } from '../../support/test-video.ts'

const site = serveForThisFile()
const COURSE = 'modern-react-typescript'
const tools = findFfmpeg()
const log = { info() {}, warn() {}, error() {}, debug() {} } as never
const KEY = 'private/lessons/videos/hls-test-0001.mp4'
const PREFIX = 'private/lessons/videos/hls-test-0001-hls/'

async function cookieOf(user: TestUser) {
  const { token } = await createSessionToken(site.db, user.id)
  return `${SESSION_COOKIE}=${token}`
}
const get = (url: string, headers: Record<string, string> = {}) => fetch(`${site.baseUrl}${url}`, { headers })

let lessonId = ''
let uploader: TestUser
let original: Buffer

beforeAll(async () => {
  if (!tools) return
  const file = path.join(site.uploadsDir, KEY)
  await mkdir(path.dirname(file), { recursive: true })
  makeTestVideo(tools.ffmpeg, file)
  original = await readFile(file)
  ;({ lessonId, uploader } = await lessonWithQueuedVideo(site.db, COURSE, {
    id: 'hlstest0001',
    key: KEY,
    sizeBytes: original.length,
  }))

  // Tests run shuffled: the one-way story (relayed, processing, transcoded) happens here, each test reads its part.
  const enqueue = async (uploadId: string) => {
    before.enqueued.push(uploadId)
    return `job-${before.enqueued.length}`
  }
  before.relayed = [await relayTranscodes(site.db, enqueue), await relayTranscodes(site.db, enqueue)]
  before.processing = (await lessonsWithVideoProcessing(site.db, [lessonId])).get(lessonId) ?? null
  const buyer = await cookieOf((await buyerOfCourse(site.db, COURSE)).user)
  before.masterStatus = (await get(`/api/learn/hls/${lessonId}/master.m3u8`, { cookie: buyer })).status
  before.media = Buffer.from(await (await get(`/api/learn/media/${lessonId}`, { cookie: buyer })).arrayBuffer())
  before.result = await transcodeUpload(
    { db: site.db, storage: createLocalStorage(site.uploadsDir), log, ffmpeg: tools },
    'hlstest0001',
  )
})

const before = {
  enqueued: [] as string[],
  relayed: [] as number[],
  processing: null as number | null,
  masterStatus: 0,
  media: Buffer.alloc(0),
  result: '',
}

describe.skipIf(!tools)('HLS renditions of a stored lesson video', () => {
  const storage = () => createLocalStorage(site.uploadsDir)

  it('relays the stored upload onto the queue once, and it counts as processing until its job ran', () => {
    expect(before.relayed).toEqual([1, 0])
    expect(before.enqueued).toEqual(['hlstest0001'])
    expect(before.processing).toBe(0)
  })

  it('has no playlist before its renditions exist, and the original plays meanwhile', () => {
    expect(before.masterStatus).toBe(404)
    expect(before.media.equals(original)).toBe(true)
  })

  it('transcodes into playlists, one rendition no taller than the source, and a poster; progress reaches 100', async () => {
    expect(before.result).toBe('ready')
    const row = await site.db
      .selectFrom('creator_uploads')
      .select(['transcode_status', 'transcode_percent', 'hls_prefix', 'hls_heights'])
      .where('id', '=', 'hlstest0001')
      .executeTakeFirstOrThrow()
    expect(row).toEqual({ transcode_status: 'ready', transcode_percent: 100, hls_prefix: PREFIX, hls_heights: '360' })
    const master = await readFile(path.join(site.uploadsDir, PREFIX, 'master.m3u8'), 'utf8')
    expect(master).toContain('RESOLUTION=640x360')
    expect(master).toContain('360p/index.m3u8')
    expect(master).not.toContain('720p')
    const variant = await readFile(path.join(site.uploadsDir, PREFIX, '360p/index.m3u8'), 'utf8')
    expect(variant).toContain('#EXT-X-BYTERANGE')
    expect(variant).toContain('#EXT-X-ENDLIST')
    expect((await stat(path.join(site.uploadsDir, PREFIX, '360p/stream.mp4'))).size).toBeGreaterThan(1000)
    const poster = await readFile(path.join(site.uploadsDir, PREFIX, 'poster.jpg'))
    expect([...poster.subarray(0, 2)]).toEqual([0xff, 0xd8])
    expect((await lessonsWithVideoProcessing(site.db, [lessonId])).size).toBe(0)
  })

  it('checks access on every playlist, segment and poster: visitor 401, non-enrolled 403, buyer served', async () => {
    const stranger = await cookieOf(await createUser(site.db))
    const { user } = await buyerOfCourse(site.db, COURSE)
    const buyer = await cookieOf(user)
    for (const file of ['master.m3u8', '360p/index.m3u8', '360p/stream.mp4', 'poster.jpg']) {
      const url = `/api/learn/hls/${lessonId}/${file}`
      expect((await get(url)).status, file).toBe(401)
      expect((await get(url, { cookie: stranger, range: 'bytes=0-99' })).status, file).toBe(403)
    }
    const master = await get(`/api/learn/hls/${lessonId}/master.m3u8`, { cookie: buyer })
    expect(master.status).toBe(200)
    expect(master.headers.get('content-type')).toBe('application/vnd.apple.mpegurl')
    expect(await master.text()).toContain('360p/index.m3u8')
    const segment = await get(`/api/learn/hls/${lessonId}/360p/stream.mp4`, { cookie: buyer, range: 'bytes=0-99' })
    expect(segment.status).toBe(206)
    expect(segment.headers.get('content-type')).toBe('video/mp4')
    // A rendition that was not made, and any other file name, are not found.
    expect((await get(`/api/learn/hls/${lessonId}/720p/index.m3u8`, { cookie: buyer })).status).toBe(404)
    expect((await get(`/api/learn/hls/${lessonId}/../../x`, { cookie: buyer })).status).toBe(404)
  })

  it('gives learners a rendition as the plain file, and the original only to its uploader', async () => {
    const { user } = await buyerOfCourse(site.db, COURSE)
    const media = await get(`/api/learn/media/${lessonId}`, { cookie: await cookieOf(user) })
    expect(media.status).toBe(200)
    const served = Buffer.from(await media.arrayBuffer())
    expect(served.equals(await readFile(path.join(site.uploadsDir, PREFIX, '360p/stream.mp4')))).toBe(true)
    expect(served.equals(original)).toBe(false)

    const url = '/api/uploads/videos/hlstest0001/original'
    expect((await get(url)).status).toBe(401)
    expect((await get(url, { cookie: await cookieOf(user) })).status).toBe(404)
    const own = await get(url, { cookie: await cookieOf(uploader) })
    expect(own.status).toBe(200)
    expect(own.headers.get('content-disposition')).toContain('attachment')
    expect(Buffer.from(await own.arrayBuffer()).equals(original)).toBe(true)
  })

  /** A stored upload of the test video, queued for its transcode; its key. */
  async function queuedUpload(id: string) {
    const key = `private/lessons/videos/${id}.mp4`
    await mkdir(path.dirname(path.join(site.uploadsDir, key)), { recursive: true })
    await writeFile(path.join(site.uploadsDir, key), original)
    await site.db
      .insertInto('creator_uploads')
      .values({
        id,
        user_id: uploader.id,
        storage_owner_id: uploader.id,
        size_bytes: original.length,
        status: 'stored',
        storage_key: key,
        content_type: 'video/mp4',
        transcode_status: 'queued',
      })
      .execute()
    return key
  }
  const transcodeStatusOf = async (id: string) =>
    await site.db
      .selectFrom('creator_uploads')
      .select(['transcode_status', 'hls_prefix'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()

  it('when ffmpeg fails: retried while tries are left, then marked failed, nothing stored, the original kept', async () => {
    const key = await queuedUpload('hlstest0003')
    // ffprobe reads the video; ffmpeg then fails as a broken or killed encoder does.
    const bin = await mkdtemp(path.join(tmpdir(), 'broken-ffmpeg-'))
    const ffmpeg = path.join(bin, 'ffmpeg')
    await writeFile(ffmpeg, '#!/bin/sh\necho "Conversion failed!" >&2\nexit 1\n', { mode: 0o755 })
    const warnings: unknown[] = []
    const deps = {
      db: site.db,
      storage: storage(),
      log: { info() {}, warn: (entry: unknown) => warnings.push(entry), error() {}, debug() {} } as never,
      ffmpeg: { ffmpeg, ffprobe: tools!.ffprobe },
    }
    const statusOf = () => transcodeStatusOf('hlstest0003')
    try {
      // A try with more left: thrown for the queue to retry, the row still processing.
      await expect(transcodeUpload(deps, 'hlstest0003', false)).rejects.toThrow(
        /ffmpeg exited with 1: Conversion failed!/,
      )
      expect(await statusOf()).toEqual({ transcode_status: 'processing', hls_prefix: null })
      // The last try: failed, settled; the job ends.
      expect(await transcodeUpload(deps, 'hlstest0003', true)).toBe('failed')
      expect(await statusOf()).toEqual({ transcode_status: 'failed', hls_prefix: null })
      expect(warnings).toHaveLength(2)
    } finally {
      await rm(bin, { recursive: true, force: true })
    }
    const left: string[] = []
    for await (const file of storage().list('private/lessons/videos/hls-test-0003-hls/')) left.push(file.key)
    expect(left).toEqual([])
    expect(await readFile(path.join(site.uploadsDir, key))).toEqual(original)
  })

  it('when ffmpeg hangs: it is killed after its silence, the try fails and the last try settles as failed', async () => {
    await queuedUpload('hlstest0004')
    // ffprobe reads the video; ffmpeg prints one progress line and then nothing, as a hung encoder does.
    const bin = await mkdtemp(path.join(tmpdir(), 'hung-ffmpeg-'))
    const ffmpeg = path.join(bin, 'ffmpeg')
    const pidFile = path.join(bin, 'pid')
    await writeFile(ffmpeg, `#!/bin/sh\necho $$ > '${pidFile}'\necho out_time_us=0\nexec sleep 600\n`, { mode: 0o755 })
    const deps = { db: site.db, storage: storage(), log, ffmpeg: { ffmpeg, ffprobe: tools!.ffprobe, silenceMs: 3000 } }
    try {
      const started = Date.now()
      await expect(transcodeUpload(deps, 'hlstest0004', false)).rejects.toThrow(
        /ffmpeg printed nothing for 3 s and was stopped/,
      )
      expect(Date.now() - started).toBeLessThan(30_000)
      // The hung program is gone, not left running beside the next try.
      const pid = Number(await readFile(pidFile, 'utf8'))
      expect(() => process.kill(pid, 0)).toThrow(/ESRCH/)
      expect(await transcodeUpload(deps, 'hlstest0004', true)).toBe('failed')
      expect(await transcodeStatusOf('hlstest0004')).toEqual({ transcode_status: 'failed', hls_prefix: null })
    } finally {
      await rm(bin, { recursive: true, force: true })
    }
  })

  it('without ffmpeg an upload is marked unavailable (it plays as uploaded)', async () => {
    await site.db
      .insertInto('creator_uploads')
      .values({
        id: 'hlstest0002',
        user_id: uploader.id,
        storage_owner_id: uploader.id,
        size_bytes: original.length,
        status: 'stored',
        storage_key: 'private/lessons/videos/hls-test-0002.mp4',
        content_type: 'video/mp4',
        transcode_status: 'queued',
      })
      .execute()
    expect(await transcodeUpload({ db: site.db, storage: storage(), log, ffmpeg: null }, 'hlstest0002')).toBe(
      'unavailable',
    )
    const row = await site.db
      .selectFrom('creator_uploads')
      .select('transcode_status')
      .where('id', '=', 'hlstest0002')
      .executeTakeFirstOrThrow()
    expect(row.transcode_status).toBe('unavailable')
  })
})

afterAll(() => {
  if (!tools) console.warn('hls-renditions: no ffmpeg on this machine, tests skipped')
})
