// The fake bucket's multipart rules (tests/support/fake-s3-multipart.ts) hold as S3 states them, so a store that
// passes against it would not be refused by S3 for what the fake let through: the check itself, checked.
import { crc32 } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import {
  badChecksum,
  completeUpload,
  decodeAwsChunked,
  etagOf,
  MIN_PART_BYTES,
  type MultipartUpload,
  partsNamed,
} from '../support/fake-s3-multipart.ts'

function uploadWith(...sizes: number[]): MultipartUpload {
  const parts = new Map(
    sizes.map((size, index) => {
      const body = Buffer.alloc(size, index + 1)
      return [index + 1, { body, etag: etagOf(body), lastModified: new Date() }] as const
    }),
  )
  return { key: 'k', initiated: new Date(), contentType: undefined, metadata: {}, parts }
}
const named = (upload: MultipartUpload, numbers: number[]) =>
  numbers.map((partNumber) => ({ partNumber, etag: upload.parts.get(partNumber)?.etag ?? '"none"' }))

describe('the fake bucket refuses what S3 refuses', () => {
  it('joins parts named in ascending order with their ETags, every one but the last at least 5 MiB', () => {
    const upload = uploadWith(MIN_PART_BYTES, MIN_PART_BYTES, 10)
    const joined = completeUpload(upload, named(upload, [1, 2, 3]))
    expect('body' in joined && joined.body.length).toBe(2 * MIN_PART_BYTES + 10)
    expect(completeUpload(upload, named(upload, [2, 1, 3]))).toEqual({ code: 'InvalidPartOrder' })
    expect(completeUpload(upload, [{ partNumber: 1, etag: '"other"' }])).toEqual({ code: 'InvalidPart' })
    expect(completeUpload(upload, named(upload, [1, 4]))).toEqual({ code: 'InvalidPart' })
    expect(completeUpload(upload, [])).toEqual({ code: 'MalformedXML' })
    const short = uploadWith(MIN_PART_BYTES - 1, 10)
    expect(completeUpload(short, named(short, [1, 2]))).toEqual({ code: 'EntityTooSmall' })
  })

  it('reads a Complete request body as the SDK writes it', () => {
    const xml =
      '<CompleteMultipartUpload xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Part><ETag>&quot;a1&quot;</ETag>' +
      '<PartNumber>1</PartNumber></Part><Part><ETag>"b2"</ETag><PartNumber>2</PartNumber></Part></CompleteMultipartUpload>'
    expect(partsNamed(xml)).toEqual([
      { partNumber: 1, etag: '"a1"' },
      { partNumber: 2, etag: '"b2"' },
    ])
  })

  it('decodes an aws-chunked body with its trailer, and refuses a cut one', () => {
    const raw = Buffer.from('5\r\nhello\r\n6\r\n world\r\n0\r\nx-amz-checksum-crc32:DUoRhQ==\r\n\r\n')
    const decoded = decodeAwsChunked(raw)
    expect(decoded?.body.toString()).toBe('hello world')
    expect(decoded?.trailers).toEqual({ 'x-amz-checksum-crc32': 'DUoRhQ==' })
    expect(decodeAwsChunked(Buffer.from('5\r\nhel'))).toBeNull()
  })

  it('checks a CRC32 or Content-MD5 sent with the body', () => {
    const body = Buffer.from('hello world')
    const crc = Buffer.alloc(4)
    crc.writeUInt32BE(crc32(body))
    expect(badChecksum({ 'x-amz-checksum-crc32': crc.toString('base64') }, body)).toBeNull()
    expect(badChecksum({ 'x-amz-checksum-crc32': crc.toString('base64') }, Buffer.from('hello there'))).toBe(
      'x-amz-checksum-crc32',
    )
    expect(badChecksum({ 'content-md5': 'XrY7u+Ae7tCTyyK7j1rNww==' }, body)).toBeNull()
    expect(badChecksum({ 'content-md5': 'AAAAAAAAAAAAAAAAAAAAAA==' }, body)).toBe('content-md5')
  })
})
