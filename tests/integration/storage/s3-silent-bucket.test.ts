// A bucket that accepts connections and never answers (a stuck S3-compatible store, a firewall dropping packets):
// a tus upload's step and a private file's download fail within the storage's timeout, never hang, and the same
// storage works again once the bucket answers. A bucket that stops in the middle of a body fails the read too, while
// a reader that is slow itself (a viewer on a slow connection) is never cut off.
import { createHash, randomBytes } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
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
    const result = await outcome(async () => (await tus.datastore()).create(upload))
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

describe('a bucket that stops in the middle of a body', () => {
  let halfway: Server
  beforeAll(async () => {
    // Answers every GET with a 1,000-byte body's headers and its first 500 bytes, then nothing.
    halfway = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/pdf', 'content-length': '1000' })
      response.write(Buffer.alloc(500, 1))
    })
    await new Promise<void>((resolve) => halfway.listen(0, '127.0.0.1', resolve))
  })
  afterAll(async () => {
    halfway?.closeAllConnections()
    await new Promise((resolve) => halfway?.close(resolve))
  })

  it('fails the read within the timeout instead of holding the download open', async () => {
    const storage = createS3Storage(options(`http://127.0.0.1:${(halfway.address() as AddressInfo).port}`))
    const stream = await storage.read('private/service-orders/brief.pdf')
    let received = 0
    const result = await outcome(async () => {
      for await (const chunk of stream) received += (chunk as Buffer).length
    })
    expect(result.ended).toBe('failed')
    expect(result.ms).toBeLessThan(5_000)
    expect(received).toBe(500)
    expect(stream.destroyed).toBe(true)
  }, 30_000)

  it('lets a slow reader pause for longer than the timeout: only the silence of the bucket counts', async () => {
    const data = randomBytes(256 * 1024)
    const working = createS3Storage(options(bucket.endpoint))
    const slow = createS3Storage({ ...options(bucket.endpoint), timeoutMs: 10_000 })
    await slow.put('private/service-orders/large.pdf', data, 'application/pdf')
    const chunks: Buffer[] = []
    let paused = false
    for await (const chunk of await working.read('private/service-orders/large.pdf')) {
      chunks.push(chunk as Buffer)
      if (!paused) {
        paused = true
        await new Promise((resolve) => setTimeout(resolve, TIMEOUT_MS * 4))
      }
    }
    expect(Buffer.concat(chunks).equals(data)).toBe(true)
  }, 30_000)
})
