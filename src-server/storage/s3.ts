// FileStorage on an S3-compatible bucket (AWS S3, MinIO, R2, …), spoken to with fetch, signed by aws4fetch
// (SigV4, with the session token of temporary credentials when there is one). Objects are read through
// S3_PUBLIC_URL (a CDN) or the bucket's own URL, which a public-read bucket policy opens (see the README);
// keys are the same as on local disk.
import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import type { ReadableStream as WebReadableStream } from 'node:stream/web'
import { AwsClient } from 'aws4fetch'
import { STORAGE_CACHE_CONTROL_SECONDS } from '../../src-shared/constants.ts'
import { StorageFailure } from '../kernel/storage-failure.ts'
import { parseListPage } from './s3-list.ts'
import { assertSafeKey, type FileStorage, PRIVATE_PREFIX } from './storage.ts'

export interface S3Options {
  bucket: string
  region: string
  accessKeyId: string
  secretAccessKey: string
  /** Session token of temporary credentials (STS, SSO, an IAM role's). */
  sessionToken?: string
  /** e.g. http://127.0.0.1:9000 for MinIO (path-style); AWS virtual-hosted style when omitted. */
  endpoint?: string
  /** Base URL the stored files are read from; the bucket URL when omitted. */
  publicUrl?: string
  timeoutMs?: number
  /** Where uploads are staged on the way to the bucket (DATA_DIR/staging; the OS temp dir by default). */
  stagingDir?: string
}

const sha256Hex = (data: Uint8Array) => createHash('sha256').update(data).digest('hex')

/** "403 SignatureDoesNotMatch": S3's error code, without echoing its whole XML into logs and answers. */
async function describeFailure(response: Response): Promise<string> {
  const text = await response.text().catch(() => '')
  const code = /<Code>([^<]{1,100})<\/Code>/.exec(text)?.[1]
  return code ? `${response.status} ${code}` : String(response.status)
}

/**
 * An object's body as a Node stream that fails when the bucket sends nothing for `silenceMs` while the stream waits
 * for bytes. Only waits the reader asked for count: a viewer's slow connection pauses the stream (nothing is asked),
 * a bucket that stops mid-body fails it, and the route ends the download instead of holding it open.
 */
function bodyFailingOnSilence(body: WebReadableStream<Uint8Array>, silenceMs: number, key: string): Readable {
  const reader = body.getReader()
  return new Readable({
    async read() {
      let timer: NodeJS.Timeout | undefined
      const silent = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new StorageFailure(`S3 GET ${key} stopped sending`)), silenceMs)
      })
      try {
        const next = await Promise.race([reader.read(), silent])
        this.push(next.done ? null : next.value)
      } catch (error) {
        this.destroy(error as Error)
      } finally {
        clearTimeout(timer)
      }
    },
    destroy(error, done) {
      reader.cancel(error ?? undefined).catch(() => undefined)
      done(error)
    },
  })
}

/** The bucket's answer, or a StorageFailure when none came (refused, reset, timed out). */
function answerOf(what: string, request: Promise<Response>): Promise<Response> {
  return request.catch((error: unknown) => {
    const reason = error instanceof Error ? error.message : String(error)
    throw new StorageFailure(`S3 ${what} failed: ${reason}`, { cause: error })
  })
}

export function createS3Storage(options: S3Options): FileStorage {
  const bucketUrl = options.endpoint
    ? `${options.endpoint.replace(/\/+$/, '')}/${options.bucket}`
    : `https://${options.bucket}.s3.${options.region}.amazonaws.com`
  const publicBase = (options.publicUrl ?? bucketUrl).replace(/\/+$/, '')
  const client = new AwsClient({
    accessKeyId: options.accessKeyId,
    secretAccessKey: options.secretAccessKey,
    sessionToken: options.sessionToken,
    service: 's3',
    region: options.region,
    // aws4fetch retries 5xx and 429 answers; a few tries, inside the request's own timeout.
    retries: 2,
  })

  function send(
    method: 'GET' | 'HEAD' | 'PUT' | 'DELETE',
    url: URL,
    body?: Buffer,
    headers: Record<string, string> = {},
  ) {
    const bytes = body ? new Uint8Array(body) : new Uint8Array()
    return answerOf(
      `${method} ${url.pathname}`,
      client.fetch(url, {
        method,
        // The real payload hash (not UNSIGNED-PAYLOAD), so the bucket checks the bytes it receives.
        headers: { ...headers, 'x-amz-content-sha256': sha256Hex(bytes) },
        body: body ? bytes : undefined,
        signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
      }),
    )
  }

  const cacheControlOf = (key: string) =>
    key.startsWith(PRIVATE_PREFIX) ? 'private, no-store' : `public, max-age=${STORAGE_CACHE_CONTROL_SECONDS}`

  async function sendObject(method: 'PUT' | 'DELETE', key: string, body?: Buffer, contentType?: string) {
    assertSafeKey(key)
    const cacheControl = cacheControlOf(key)
    const headers: Record<string, string> = body
      ? { 'content-type': contentType ?? 'application/octet-stream', 'cache-control': cacheControl }
      : {}
    const response = await send(method, new URL(`${bucketUrl}/${key}`), body, headers)
    // S3 answers 204 to a DELETE of a missing key; some compatible stores answer 404: both mean "gone".
    if (!response.ok && !(method === 'DELETE' && response.status === 404)) {
      throw new StorageFailure(`S3 ${method} ${key} failed: ${await describeFailure(response)}`)
    }
    await response.body?.cancel()
  }

  return {
    async put(key, data, contentType) {
      await sendObject('PUT', key, data, contentType)
      return `${publicBase}/${key}`
    },
    async putFile(key, file, contentType) {
      assertSafeKey(key)
      // Streamed from the staged file with its length and the SHA-256 computed while it arrived (signed, so the
      // bucket checks the bytes). No retry: a stream cannot be sent twice; the editor uploads again.
      // Bounded by silence, not by length: the bucket taking no more bytes, or not answering after the last, for the
      // timeout fails the upload (a silent bucket held it for 10 minutes); a large file that keeps moving takes as long
      // as it needs.
      const stalled = new AbortController()
      let timer: NodeJS.Timeout | undefined
      const moved = () => {
        clearTimeout(timer)
        timer = setTimeout(() => stalled.abort(new Error(`S3 PUT ${key} timed out`)), options.timeoutMs ?? 15_000)
      }
      const bytes = createReadStream(file.path).on('data', moved).on('end', moved)
      moved()
      const sent = client.fetch(new URL(`${bucketUrl}/${key}`), {
        method: 'PUT',
        headers: {
          'content-type': contentType,
          'content-length': String(file.size),
          'cache-control': cacheControlOf(key),
          'x-amz-content-sha256': file.sha256,
        },
        body: Readable.toWeb(bytes) as ReadableStream<Uint8Array>,
        duplex: 'half',
        signal: stalled.signal,
        aws: { allHeaders: true },
      } as RequestInit & { duplex: 'half'; aws: { allHeaders: boolean } })
      const response = await answerOf(`PUT ${key}`, sent).finally(() => clearTimeout(timer))
      if (!response.ok) throw new StorageFailure(`S3 PUT ${key} failed: ${await describeFailure(response)}`)
      await response.body?.cancel()
      return `${publicBase}/${key}`
    },
    stagingDir: options.stagingDir ?? path.join(tmpdir(), 'storefront-staging'),
    async size(key) {
      assertSafeKey(key)
      const response = await send('HEAD', new URL(`${bucketUrl}/${key}`))
      if (response.status === 404) return null
      if (!response.ok) throw new StorageFailure(`S3 HEAD ${key} failed: ${response.status}`)
      return Number(response.headers.get('content-length') ?? 0)
    },
    async read(key, range) {
      assertSafeKey(key)
      // Private objects (service-order files) are read with the app's credentials and streamed by its own routes.
      const headers: Record<string, string> = range ? { range: `bytes=${range.start}-${range.end}` } : {}
      // Bounded until the answer starts (a silent bucket held the download forever); the body then takes as long as
      // the viewer's connection needs, bounded only by the bucket's own silence (bodyFailingOnSilence).
      const waiting = new AbortController()
      const timer = setTimeout(() => waiting.abort(new Error(`S3 GET ${key} timed out`)), options.timeoutMs ?? 15_000)
      const response = await answerOf(
        `GET ${key}`,
        client.fetch(new URL(`${bucketUrl}/${key}`), {
          headers: { ...headers, 'x-amz-content-sha256': sha256Hex(new Uint8Array()) },
          signal: waiting.signal,
        }),
      ).finally(() => clearTimeout(timer))
      // A missing object is not the bucket failing: the caller's own answer for a file that is not there.
      if (response.status === 404) throw new Error(`S3 GET ${key} failed: ${await describeFailure(response)}`)
      if (!response.ok || !response.body) {
        throw new StorageFailure(`S3 GET ${key} failed: ${await describeFailure(response)}`)
      }
      return bodyFailingOnSilence(response.body as WebReadableStream<Uint8Array>, options.timeoutMs ?? 15_000, key)
    },
    async remove(key) {
      await sendObject('DELETE', key)
    },
    async *list(prefix) {
      let continuation: string | undefined
      do {
        const url = new URL(bucketUrl)
        url.searchParams.set('list-type', '2')
        url.searchParams.set('prefix', prefix)
        if (continuation) url.searchParams.set('continuation-token', continuation)
        const response = await send('GET', url)
        if (!response.ok) throw new StorageFailure(`S3 list ${prefix} failed: ${await describeFailure(response)}`)
        const page = parseListPage(await response.text())
        yield* page.files
        continuation = page.nextContinuationToken
      } while (continuation)
    },
    keyFromUrl(url) {
      return url.startsWith(`${publicBase}/`) ? url.slice(publicBase.length + 1) : null
    },
    publicOrigin: new URL(publicBase).origin,
  }
}
