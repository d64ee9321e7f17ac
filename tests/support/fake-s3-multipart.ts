// What the fake bucket (fake-s3.ts) needs beyond single objects for @tus/s3-store, the resumable uploads' store in
// production: S3's multipart upload (Create, UploadPart, ListParts, Complete, Abort, ListMultipartUploads), CopyObject,
// DeleteObjects, and bodies the AWS SDK sends `aws-chunked` with a trailing checksum. Written from the S3 API
// reference (2006-03-01), with its rules that matter to a client: every part but the last at least 5 MiB, a Complete
// naming existing parts in ascending order with their ETags, a DeleteObjects carrying a checksum of its body.
import { createHash } from 'node:crypto'
import { crc32 } from 'node:zlib'

/** S3's smallest part other than the last (EntityTooSmall below it). */
export const MIN_PART_BYTES = 5 * 1024 * 1024

export interface StoredPart {
  body: Buffer
  etag: string
  lastModified: Date
}

export interface MultipartUpload {
  key: string
  initiated: Date
  contentType: string | undefined
  metadata: Record<string, string>
  parts: Map<number, StoredPart>
}

export const xmlEscape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

export const etagOf = (body: Buffer) => `"${createHash('md5').update(body).digest('hex')}"`

/** The `x-amz-meta-*` headers of a request, by their names without the prefix (S3 keeps them with the object). */
export function metadataOf(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const metadata: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (name.startsWith('x-amz-meta-') && value !== undefined) metadata[name.slice(11)] = String(value)
  }
  return metadata
}

export const metadataHeaders = (metadata: Record<string, string>) =>
  Object.fromEntries(Object.entries(metadata).map(([name, value]) => [`x-amz-meta-${name}`, value]))

/**
 * A body sent `aws-chunked` (x-amz-content-sha256: STREAMING-UNSIGNED-PAYLOAD-TRAILER): `<hex size>\r\n<bytes>\r\n`
 * chunks up to a zero one, then trailer lines (`x-amz-checksum-crc32:…`) and a blank line. Null when malformed.
 */
export function decodeAwsChunked(raw: Buffer): { body: Buffer; trailers: Record<string, string> } | null {
  const chunks: Buffer[] = []
  let at = 0
  for (;;) {
    const lineEnd = raw.indexOf('\r\n', at)
    if (lineEnd < 0) return null
    const size = Number.parseInt(raw.subarray(at, lineEnd).toString('latin1').split(';')[0] ?? '', 16)
    if (!Number.isFinite(size) || size < 0) return null
    at = lineEnd + 2
    if (size === 0) break
    if (raw.length < at + size + 2) return null
    chunks.push(raw.subarray(at, at + size))
    at += size + 2
  }
  const trailers: Record<string, string> = {}
  for (const line of raw.subarray(at).toString('latin1').split('\r\n')) {
    const colon = line.indexOf(':')
    if (colon > 0) trailers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  return { body: Buffer.concat(chunks), trailers }
}

/** The checksums S3 checks (header or trailer); the name of the one that does not match, or null. */
export function badChecksum(sent: Record<string, string | string[] | undefined>, body: Buffer): string | null {
  const crc = sent['x-amz-checksum-crc32']
  if (crc !== undefined) {
    const expected = Buffer.alloc(4)
    expected.writeUInt32BE(crc32(body))
    if (String(crc) !== expected.toString('base64')) return 'x-amz-checksum-crc32'
  }
  const md5 = sent['content-md5']
  if (md5 !== undefined && String(md5) !== createHash('md5').update(body).digest('base64')) return 'content-md5'
  return null
}

const tagValues = (xml: string, tag: string) =>
  [...xml.matchAll(new RegExp(`<${tag}>([^<]*)</${tag}>`, 'g'))].map((match) => match[1] ?? '')

const unescapeXml = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')

/** The parts a CompleteMultipartUpload names, in the order it names them. */
export function partsNamed(xml: string): { partNumber: number; etag: string }[] {
  return [...xml.matchAll(/<Part>([\s\S]*?)<\/Part>/g)].map((match) => ({
    partNumber: Number(tagValues(match[1] ?? '', 'PartNumber')[0]),
    etag: unescapeXml(tagValues(match[1] ?? '', 'ETag')[0] ?? ''),
  }))
}

/** The keys a DeleteObjects names. */
export const keysNamed = (xml: string) => tagValues(xml, 'Key').map(unescapeXml)

/**
 * Joins the parts a Complete names, checked as S3 checks them: each uploaded with that ETag, in ascending order, every
 * one but the last at least MIN_PART_BYTES. The error code when not.
 */
export function completeUpload(
  upload: MultipartUpload,
  named: { partNumber: number; etag: string }[],
): { body: Buffer } | { code: string } {
  if (named.length === 0) return { code: 'MalformedXML' }
  const bodies: Buffer[] = []
  for (const [index, part] of named.entries()) {
    const stored = upload.parts.get(part.partNumber)
    if (!stored || stored.etag !== part.etag) return { code: 'InvalidPart' }
    if (index > 0 && part.partNumber <= (named[index - 1]?.partNumber ?? 0)) return { code: 'InvalidPartOrder' }
    if (index < named.length - 1 && stored.body.length < MIN_PART_BYTES) return { code: 'EntityTooSmall' }
    bodies.push(stored.body)
  }
  return { body: Buffer.concat(bodies) }
}

const S3_NS = 'xmlns="http://s3.amazonaws.com/doc/2006-03-01/"'

export const initiateResult = (bucket: string, key: string, uploadId: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><InitiateMultipartUploadResult ${S3_NS}><Bucket>${bucket}</Bucket><Key>${xmlEscape(key)}</Key><UploadId>${uploadId}</UploadId></InitiateMultipartUploadResult>`

/** A ListParts page: parts after `part-number-marker`, at most `max-parts` (and the fake's own page limit). */
export function listPartsResult(
  bucket: string,
  uploadId: string,
  upload: MultipartUpload,
  query: URLSearchParams,
  limit: number,
) {
  const marker = Number(query.get('part-number-marker') ?? 0)
  const maxParts = Math.min(Number(query.get('max-parts') ?? 1000), limit)
  const numbers = [...upload.parts.keys()].filter((number) => number > marker).sort((a, b) => a - b)
  const page = numbers.slice(0, maxParts)
  const truncated = numbers.length > page.length
  const parts = page.map((number) => {
    const part = upload.parts.get(number) as StoredPart
    return `<Part><PartNumber>${number}</PartNumber><LastModified>${part.lastModified.toISOString()}</LastModified><ETag>${xmlEscape(part.etag)}</ETag><Size>${part.body.length}</Size></Part>`
  })
  return [
    `<?xml version="1.0" encoding="UTF-8"?><ListPartsResult ${S3_NS}><Bucket>${bucket}</Bucket>`,
    `<Key>${xmlEscape(upload.key)}</Key><UploadId>${uploadId}</UploadId><PartNumberMarker>${marker}</PartNumberMarker>`,
    truncated ? `<NextPartNumberMarker>${page.at(-1)}</NextPartNumberMarker>` : '',
    `<MaxParts>${maxParts}</MaxParts><IsTruncated>${truncated}</IsTruncated>`,
    ...parts,
    '</ListPartsResult>',
  ].join('')
}

/** Every upload in progress (the store's sweep pages by its markers; the fake answers all in one page). */
export function listUploadsResult(bucket: string, uploads: Map<string, MultipartUpload>) {
  const entries = [...uploads.entries()]
    .sort(([, a], [, b]) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map(
      ([uploadId, upload]) =>
        `<Upload><Key>${xmlEscape(upload.key)}</Key><UploadId>${uploadId}</UploadId><Initiated>${upload.initiated.toISOString()}</Initiated><StorageClass>STANDARD</StorageClass></Upload>`,
    )
  return `<?xml version="1.0" encoding="UTF-8"?><ListMultipartUploadsResult ${S3_NS}><Bucket>${bucket}</Bucket><KeyMarker></KeyMarker><UploadIdMarker></UploadIdMarker><MaxUploads>1000</MaxUploads><IsTruncated>false</IsTruncated>${entries.join('')}</ListMultipartUploadsResult>`
}

export const completeResult = (bucket: string, key: string, etag: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><CompleteMultipartUploadResult ${S3_NS}><Bucket>${bucket}</Bucket><Key>${xmlEscape(key)}</Key><ETag>${xmlEscape(etag)}</ETag></CompleteMultipartUploadResult>`

export const copyResult = (etag: string, at: Date) =>
  `<?xml version="1.0" encoding="UTF-8"?><CopyObjectResult ${S3_NS}><LastModified>${at.toISOString()}</LastModified><ETag>${xmlEscape(etag)}</ETag></CopyObjectResult>`

export const deleteResult = (keys: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?><DeleteResult ${S3_NS}>${keys.map((key) => `<Deleted><Key>${xmlEscape(key)}</Key></Deleted>`).join('')}</DeleteResult>`
