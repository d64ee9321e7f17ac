// A bucket that accepts connections and never answers (a stuck S3-compatible store, a firewall dropping packets):
// a tus upload's step and a private file's download fail within the storage's timeout, never hang, and the same
// storage works again once the bucket answers.
import { createHash, randomBytes } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Upload } from '@tus/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createS3Storage, type S3Options } from '../../../src-server/storage/s3.ts'
import { createS3TusFiles } from '../../../src-server/storage/tus-store.ts'
import { type FakeS3, startFakeS3 } from '../../support/fake-s3.ts'
import { type SilentServer, startSilentServer } from '../../support/silent-server.ts'

const CREDENTIALS = { accessKeyId: 'AKIDSILENT', secretAccessKey: 'silent-secret', region: 'eu-west-1' }
const TIMEOUT_MS = 300

let silent: SilentServer
let bucket: FakeS3
beforeAll(async () => {
  silent = await startSilentServer()
  bucket = await startFakeS3({ ...CREDENTIALS, bucket: 'uploads' })
})
afterAll(async () => {
  await silent?.close()
  await bucket?.close()
})

const options = (endpoint: string): S3Options => ({
  ...CREDENTIALS,
  bucket: 'uploads',
  endpoint,
  timeoutMs: TIMEOUT_MS,
})
const silentOptions = () => options(`http://127.0.0.1:${silent.port}`)

/** How the call ended and after how long; 'hung' when it had not within `bound` ms (the test then fails). */
async function outcome(call: () => Promise<unknown>, bound = 15_000) {
  const started = performance.now()
  let timer: NodeJS.Timeout | undefined
  const hung = new Promise<'hung'>((resolve) => {
    timer = setTimeout(() => resolve('hung'), bound)
  })
  const ended = await Promise.race([
    call().then(
      () => 'answered' as const,
      () => 'failed' as const,
    ),
    hung,
  ])
  clearTimeout(timer)
  return { ended, ms: performance.now() - started }
}

describe('a bucket that never answers', () => {
  it('fails the start of a tus upload instead of holding it open', async () => {
    const tus = createS3TusFiles(silentOptions())
    const upload = new Upload({ id: randomBytes(16).toString('hex'), size: 1000, offset: 0, metadata: {} })
    const before = silent.accepted
    const result = await outcome(() => tus.datastore.create(upload))
    expect(result.ended).toBe('failed')
    // Two attempts (one retry), each waiting out its timeout: not the SDK's three.
    expect(silent.accepted - before).toBe(2)
  }, 30_000)

  it('fails a private file download instead of holding it open; the same key reads once the bucket answers', async () => {
    const storage = createS3Storage(silentOptions())
    expect((await outcome(() => storage.read('private/service-orders/brief.pdf'))).ended).toBe('failed')

    // The bucket that answers gets time to answer: a loaded test run once took over 300 ms for its put.
    const working = createS3Storage({ ...options(bucket.endpoint), timeoutMs: 10_000 })
    await working.put('private/service-orders/brief.pdf', Buffer.from('brief'), 'application/pdf')
    const chunks: Buffer[] = []
    for await (const chunk of await working.read('private/service-orders/brief.pdf')) chunks.push(chunk as Buffer)
    expect(Buffer.concat(chunks).toString()).toBe('brief')
  }, 30_000)

  it('fails storing an uploaded file (a lesson video, an application PDF) instead of holding it for minutes', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'silent-put-'))
    try {
      const data = randomBytes(64 * 1024)
      const file = path.join(dir, 'video.mp4')
      await writeFile(file, data)
      const staged = { path: file, size: data.length, sha256: createHash('sha256').update(data).digest('hex') }
      const storage = createS3Storage(silentOptions())
      const result = await outcome(() => storage.putFile('lessons/videos/silent.mp4', staged, 'video/mp4'))
      expect(result.ended).toBe('failed')
      expect(result.ms).toBeLessThan(5_000)

      // The same file is stored once the bucket answers.
      const working = createS3Storage({ ...options(bucket.endpoint), timeoutMs: 10_000 })
      await working.putFile('lessons/videos/silent.mp4', staged, 'video/mp4')
      expect(await working.size('lessons/videos/silent.mp4')).toBe(data.length)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }, 30_000)
})
