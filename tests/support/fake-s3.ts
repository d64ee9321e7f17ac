// A small S3-compatible server for tests, path-style (`/<bucket>/<key>`): PutObject, HeadObject, DeleteObject,
// GetObject (ranged too) and ListObjectsV2 (paged), and for the resumable uploads' store the multipart upload,
// CopyObject and DeleteObjects (fake-s3-multipart.ts). Every request but an object GET must carry a valid SigV4
// signature (and the session token, when one is configured), recomputed independently by sigv4-verify.ts; object GETs
// are anonymous, as with the public-read bucket policy the README describes, except under `privatePrefixes` (the
// policy never opens them): those need a signed GET, as the app's own reads are. Checksums sent with a body (header
// or `aws-chunked` trailer) are checked, as S3 checks them.
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  badChecksum,
  completeResult,
  completeUpload,
  copyResult,
  decodeAwsChunked,
  deleteResult,
  etagOf,
  initiateResult,
  keysNamed,
  listPartsResult,
  listUploadsResult,
  type MultipartUpload,
  metadataHeaders,
  metadataOf,
  partsNamed,
  xmlEscape,
} from './fake-s3-multipart.ts'
import { type Credentials, verifyRequest } from './sigv4-verify.ts'

export interface StoredObject {
  body: Buffer
  contentType: string | undefined
  cacheControl: string | undefined
  lastModified: Date
  /** `x-amz-meta-*` headers it was stored with, by name without the prefix. */
  metadata?: Record<string, string>
}

export interface FakeS3 {
  endpoint: string
  bucket: string
  /** Objects by key. Tests may add or age objects directly. */
  objects: Map<string, StoredObject>
  /** Multipart uploads in progress, by upload id. Tests may age them (`initiated`). */
  uploads: Map<string, MultipartUpload>
  /** Every request with the status it got, in order. */
  log: { method: string; target: string; status: number; code?: string }[]
  /** While true, every request is answered 503 SlowDown, as a bucket in trouble answers. */
  down: boolean
  close(): Promise<void>
}

export interface FakeS3Options extends Credentials {
  bucket: string
  /** Largest page ListObjectsV2 returns, whatever max-keys asks (S3's own cap is 1000). */
  pageLimit?: number
  /** Key prefixes the public-read policy leaves closed: an anonymous GET there is AccessDenied. */
  privatePrefixes?: readonly string[]
  /** Largest ListParts page, whatever max-parts asks (S3's own cap is 1000). */
  partPageLimit?: number
  /**
   * The IAM actions the credentials are granted (e.g. the README's list): a signed request needing another is
   * AccessDenied, as S3 answers it. Every action when unset.
   */
  permissions?: ReadonlySet<string>
}

/** The IAM actions S3 checks for a request (the S3 API reference's "Permissions" of each operation). */
function actionsFor(method: string, onBucket: boolean, query: URLSearchParams, headers: IncomingMessage['headers']) {
  const actions: string[] = []
  if (onBucket) {
    if (method === 'GET') actions.push(query.has('uploads') ? 's3:ListBucketMultipartUploads' : 's3:ListBucket')
    if (method === 'POST' && query.has('delete')) actions.push('s3:DeleteObject')
    return actions
  }
  const uploadId = query.has('uploadId')
  if (method === 'GET' || method === 'HEAD') actions.push(uploadId ? 's3:ListMultipartUploadParts' : 's3:GetObject')
  if (method === 'PUT' || method === 'POST') actions.push('s3:PutObject')
  if (method === 'DELETE') actions.push(uploadId ? 's3:AbortMultipartUpload' : 's3:DeleteObject')
  if (headers['x-amz-tagging'] !== undefined) actions.push('s3:PutObjectTagging')
  if (headers['x-amz-copy-source'] !== undefined) actions.push('s3:GetObject')
  return actions
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

function listPage(objects: Map<string, StoredObject>, query: URLSearchParams, bucket: string, pageLimit: number) {
  const prefix = query.get('prefix') ?? ''
  const after = query.get('continuation-token') ?? query.get('start-after') ?? ''
  const maxKeys = Math.min(Number(query.get('max-keys') ?? 1000), pageLimit)
  const keys = [...objects.keys()].filter((key) => key.startsWith(prefix) && key > after).sort()
  const page = keys.slice(0, maxKeys)
  const truncated = keys.length > page.length
  const contents = page.map((key) => {
    const object = objects.get(key) as StoredObject
    return `<Contents><Key>${xmlEscape(key)}</Key><LastModified>${object.lastModified.toISOString()}</LastModified><Size>${object.body.length}</Size><StorageClass>STANDARD</StorageClass></Contents>`
  })
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">',
    `<Name>${bucket}</Name><Prefix>${xmlEscape(prefix)}</Prefix><KeyCount>${page.length}</KeyCount>`,
    `<MaxKeys>${maxKeys}</MaxKeys><IsTruncated>${truncated}</IsTruncated>`,
    ...contents,
    truncated ? `<NextContinuationToken>${xmlEscape(page.at(-1) ?? '')}</NextContinuationToken>` : '',
    '</ListBucketResult>',
  ].join('')
}

/** An object's headers on a GET or HEAD. */
function objectHeaders(object: StoredObject): Record<string, string> {
  const headers: Record<string, string> = {
    etag: etagOf(object.body),
    'last-modified': object.lastModified.toUTCString(),
    ...metadataHeaders(object.metadata ?? {}),
  }
  if (object.contentType) headers['content-type'] = object.contentType
  if (object.cacheControl) headers['cache-control'] = object.cacheControl
  return headers
}

/** The IAM actions README.md tells operators to grant the app's credentials (and its bucket policy names). */
export function readmeS3Permissions(): ReadonlySet<string> {
  return new Set(readFileSync('README.md', 'utf8').match(/\bs3:[A-Za-z]+/g) ?? [])
}

export async function startFakeS3(options: FakeS3Options): Promise<FakeS3> {
  const objects = new Map<string, StoredObject>()
  const uploads = new Map<string, MultipartUpload>()
  const state = { down: false }
  const log: FakeS3['log'] = []
  const bucketPath = `/${options.bucket}`

  function answer(
    request: IncomingMessage,
    response: ServerResponse,
    status: number,
    body: string | Buffer = '',
    headers: Record<string, string> = {},
    code?: string,
  ) {
    log.push({ method: request.method ?? '', target: request.url ?? '', status, code })
    response.writeHead(status, headers).end(body)
  }
  const fail = (request: IncomingMessage, response: ServerResponse, status: number, code: string, message: string) =>
    answer(
      request,
      response,
      status,
      `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${xmlEscape(message)}</Message></Error>`,
      { 'content-type': 'application/xml' },
      code,
    )

  const server = createServer(async (request, response) => {
    const target = request.url ?? '/'
    const url = new URL(target, 'http://fake-s3.local')
    const method = request.method ?? 'GET'
    const raw = await readBody(request)
    if (state.down) return fail(request, response, 503, 'SlowDown', 'Please reduce your request rate.')
    const onBucket = url.pathname === bucketPath || url.pathname === `${bucketPath}/`
    const key = url.pathname.startsWith(`${bucketPath}/`)
      ? decodeURIComponent(url.pathname.slice(bucketPath.length + 1))
      : ''
    if (!onBucket && !key) return fail(request, response, 404, 'NoSuchBucket', 'The specified bucket does not exist')

    const uploadId = url.searchParams.get('uploadId')
    const denied = () =>
      options.permissions !== undefined &&
      actionsFor(method, onBucket, url.searchParams, request.headers).some(
        (action) => !options.permissions?.has(action),
      )
    if (method === 'GET' && key && uploadId === null) {
      if (options.privatePrefixes?.some((prefix) => key.startsWith(prefix))) {
        const verdict = verifyRequest({ method, target, headers: request.headers, body: raw }, options)
        if (!verdict.ok || denied()) return fail(request, response, 403, 'AccessDenied', 'Access Denied')
      }
      const object = objects.get(key)
      if (!object) return fail(request, response, 404, 'NoSuchKey', 'The specified key does not exist.')
      const headers = objectHeaders(object)
      // A ranged read (the app reads video headers and streams lesson media this way), as S3 answers it.
      const range = /^bytes=(\d+)-(\d*)$/.exec(String(request.headers.range ?? ''))
      if (range) {
        const start = Number(range[1])
        const end = Math.min(range[2] ? Number(range[2]) : object.body.length - 1, object.body.length - 1)
        if (start > end) return answer(request, response, 416)
        headers['content-range'] = `bytes ${start}-${end}/${object.body.length}`
        return answer(request, response, 206, object.body.subarray(start, end + 1), headers)
      }
      return answer(request, response, 200, object.body, headers)
    }

    const verdict = verifyRequest({ method, target, headers: request.headers, body: raw }, options)
    if (!verdict.ok) return fail(request, response, 403, verdict.code, verdict.message)
    if (denied()) return fail(request, response, 403, 'AccessDenied', 'Access Denied')

    // The body as sent: an `aws-chunked` one (the AWS SDK's streamed PutObject and UploadPart) decoded, its trailing
    // checksum checked as a header's is.
    let body = raw
    let sent: Record<string, string | string[] | undefined> = request.headers
    if (String(request.headers['x-amz-content-sha256']).startsWith('STREAMING-')) {
      const decoded = decodeAwsChunked(raw)
      const declared = Number(request.headers['x-amz-decoded-content-length'])
      if (!decoded || decoded.body.length !== declared) {
        return fail(request, response, 400, 'IncompleteBody', 'The body does not match its declared length')
      }
      body = decoded.body
      sent = { ...request.headers, ...decoded.trailers }
    }
    const mismatch = badChecksum(sent, body)
    if (mismatch) return fail(request, response, 400, 'BadDigest', `The ${mismatch} does not match the body`)
    const uploadOf = (id: string) => {
      const upload = uploads.get(id)
      return upload && upload.key === key ? upload : undefined
    }
    const noSuchUpload = () => fail(request, response, 404, 'NoSuchUpload', 'The specified upload does not exist.')

    if (method === 'POST' && key && url.searchParams.has('uploads')) {
      const id = randomBytes(16).toString('hex')
      const contentType = request.headers['content-type']
      uploads.set(id, {
        key,
        initiated: new Date(),
        contentType,
        metadata: metadataOf(request.headers),
        parts: new Map(),
      })
      return answer(request, response, 200, initiateResult(options.bucket, key, id), {
        'content-type': 'application/xml',
      })
    }
    if (method === 'PUT' && key && uploadId !== null) {
      const upload = uploadOf(uploadId)
      if (!upload) return noSuchUpload()
      const partNumber = Number(url.searchParams.get('partNumber'))
      if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > 10_000) {
        return fail(request, response, 400, 'InvalidArgument', 'Part number must be an integer from 1 to 10000')
      }
      const etag = etagOf(body)
      upload.parts.set(partNumber, { body, etag, lastModified: new Date() })
      return answer(request, response, 200, '', { etag })
    }
    if (method === 'GET' && key && uploadId !== null) {
      const upload = uploadOf(uploadId)
      if (!upload) return noSuchUpload()
      const xml = listPartsResult(options.bucket, uploadId, upload, url.searchParams, options.partPageLimit ?? 1000)
      return answer(request, response, 200, xml, { 'content-type': 'application/xml' })
    }
    if (method === 'POST' && key && uploadId !== null) {
      const upload = uploadOf(uploadId)
      if (!upload) return noSuchUpload()
      const joined = completeUpload(upload, partsNamed(body.toString('utf8')))
      if ('code' in joined) return fail(request, response, 400, joined.code, `CompleteMultipartUpload: ${joined.code}`)
      const stored = {
        body: joined.body,
        contentType: upload.contentType,
        cacheControl: undefined,
        lastModified: new Date(),
        metadata: upload.metadata,
      }
      objects.set(key, stored)
      uploads.delete(uploadId)
      const xml = completeResult(options.bucket, key, etagOf(joined.body))
      return answer(request, response, 200, xml, { 'content-type': 'application/xml' })
    }
    if (method === 'DELETE' && key && uploadId !== null) {
      if (!uploadOf(uploadId)) return noSuchUpload()
      uploads.delete(uploadId)
      return answer(request, response, 204)
    }
    if (method === 'PUT' && key && request.headers['x-amz-copy-source'] !== undefined) {
      const source = decodeURIComponent(String(request.headers['x-amz-copy-source'])).replace(/^\//, '')
      const from = source.startsWith(`${options.bucket}/`)
        ? objects.get(source.slice(options.bucket.length + 1))
        : undefined
      if (!from) return fail(request, response, 404, 'NoSuchKey', 'The specified key does not exist.')
      const replace = request.headers['x-amz-metadata-directive'] === 'REPLACE'
      const copy = replace
        ? {
            body: from.body,
            contentType: request.headers['content-type'],
            cacheControl: request.headers['cache-control'],
            metadata: metadataOf(request.headers),
          }
        : { ...from }
      objects.set(key, { ...copy, lastModified: new Date() })
      const xml = copyResult(etagOf(from.body), new Date())
      return answer(request, response, 200, xml, { 'content-type': 'application/xml' })
    }
    if (method === 'PUT' && key) {
      objects.set(key, {
        body,
        contentType: request.headers['content-type'],
        cacheControl: request.headers['cache-control'],
        lastModified: new Date(),
        metadata: metadataOf(request.headers),
      })
      return answer(request, response, 200, '', { etag: etagOf(body) })
    }
    // HEAD (a stored file's size): signed, like every request but a public object GET.
    if (method === 'HEAD' && key) {
      const object = objects.get(key)
      if (!object) return answer(request, response, 404)
      return answer(request, response, 200, '', {
        ...objectHeaders(object),
        'content-length': String(object.body.length),
      })
    }
    if (method === 'GET' && onBucket && url.searchParams.has('uploads')) {
      return answer(request, response, 200, listUploadsResult(options.bucket, uploads), {
        'content-type': 'application/xml',
      })
    }
    if (method === 'POST' && onBucket && url.searchParams.has('delete')) {
      // S3 refuses a DeleteObjects whose body carries no checksum (Content-MD5 or an x-amz-checksum-*).
      if (!Object.keys(sent).some((name) => name === 'content-md5' || name.startsWith('x-amz-checksum-'))) {
        return fail(request, response, 400, 'InvalidRequest', 'Missing required header for this request: Content-MD5')
      }
      const keys = keysNamed(body.toString('utf8'))
      for (const gone of keys) objects.delete(gone)
      return answer(request, response, 200, deleteResult(keys), { 'content-type': 'application/xml' })
    }
    if (method === 'DELETE' && key) {
      objects.delete(key)
      return answer(request, response, 204)
    }
    if (method === 'GET' && onBucket && url.searchParams.get('list-type') === '2') {
      const xml = listPage(objects, url.searchParams, options.bucket, options.pageLimit ?? 1000)
      return answer(request, response, 200, xml, { 'content-type': 'application/xml' })
    }
    return fail(request, response, 501, 'NotImplemented', `${method} ${target} is not supported by the fake`)
  })

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bucket: options.bucket,
    objects,
    uploads,
    log,
    get down() {
      return state.down
    },
    set down(value: boolean) {
      state.down = value
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
