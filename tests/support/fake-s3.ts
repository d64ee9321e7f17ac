// A small S3-compatible server for tests, path-style (`/<bucket>/<key>`): PutObject, DeleteObject, GetObject
// and ListObjectsV2 (paged). Every request but an object GET must carry a valid SigV4 signature (and the
// session token, when one is configured), recomputed independently by sigv4-verify.ts; object GETs are
// anonymous, as with the public-read bucket policy the README describes, except under `privatePrefixes` (the
// policy never opens them): those need a signed GET, as the app's own reads are.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type Credentials, verifyRequest } from './sigv4-verify.ts'

export interface StoredObject {
  body: Buffer
  contentType: string | undefined
  cacheControl: string | undefined
  lastModified: Date
}

export interface FakeS3 {
  endpoint: string
  bucket: string
  /** Objects by key. Tests may add or age objects directly. */
  objects: Map<string, StoredObject>
  /** Every request with the status it got, in order. */
  log: { method: string; target: string; status: number; code?: string }[]
  close(): Promise<void>
}

export interface FakeS3Options extends Credentials {
  bucket: string
  /** Largest page ListObjectsV2 returns, whatever max-keys asks (S3's own cap is 1000). */
  pageLimit?: number
  /** Key prefixes the public-read policy leaves closed: an anonymous GET there is AccessDenied. */
  privatePrefixes?: readonly string[]
}

const xmlEscape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

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

export async function startFakeS3(options: FakeS3Options): Promise<FakeS3> {
  const objects = new Map<string, StoredObject>()
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
    const body = await readBody(request)
    const onBucket = url.pathname === bucketPath || url.pathname === `${bucketPath}/`
    const key = url.pathname.startsWith(`${bucketPath}/`)
      ? decodeURIComponent(url.pathname.slice(bucketPath.length + 1))
      : ''
    if (!onBucket && !key) return fail(request, response, 404, 'NoSuchBucket', 'The specified bucket does not exist')

    if (method === 'GET' && key) {
      if (options.privatePrefixes?.some((prefix) => key.startsWith(prefix))) {
        const verdict = verifyRequest({ method, target, headers: request.headers, body }, options)
        if (!verdict.ok) return fail(request, response, 403, 'AccessDenied', 'Access Denied')
      }
      const object = objects.get(key)
      if (!object) return fail(request, response, 404, 'NoSuchKey', 'The specified key does not exist.')
      const headers: Record<string, string> = {}
      if (object.contentType) headers['content-type'] = object.contentType
      if (object.cacheControl) headers['cache-control'] = object.cacheControl
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

    const verdict = verifyRequest({ method, target, headers: request.headers, body }, options)
    if (!verdict.ok) return fail(request, response, 403, verdict.code, verdict.message)

    if (method === 'PUT' && key) {
      objects.set(key, {
        body,
        contentType: request.headers['content-type'],
        cacheControl: request.headers['cache-control'],
        lastModified: new Date(),
      })
      return answer(request, response, 200, '', { etag: '"fake"' })
    }
    // HEAD (a stored file's size): signed, like every request but a public object GET.
    if (method === 'HEAD' && key) {
      const object = objects.get(key)
      if (!object) return answer(request, response, 404)
      return answer(request, response, 200, '', { 'content-length': String(object.body.length) })
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
    log,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
