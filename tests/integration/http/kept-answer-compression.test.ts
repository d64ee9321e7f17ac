// A kept answer (decisions 0071, 0072) is compressed once per encoding and its copy sent to the next browsers
// (decision 0076): a hit sends exactly the bytes, status and headers the first, computed answer sent, and those are
// what zlib makes of the answer, as before.
import { request } from 'node:http'
import zlib from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { keepCompressedCopies, keptAnswerZlib } from '../../../src-server/trpc/kept-compression.ts'
import { serveForThisFile } from '../../support/test-server.ts'

const site = serveForThisFile()

/** The raw answer (no decompression by the client), headers but the request id and date. */
function get(path: string, acceptEncoding?: string) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
    const call = request(
      `${site.baseUrl}${path}`,
      { headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () => {
          const { 'x-request-id': _id, date: _date, ...headers } = response.headers
          resolve({ status: response.statusCode ?? 0, headers, body: Buffer.concat(chunks) })
        })
      },
    )
    call.on('error', reject)
    call.end()
  })
}

const searchPath = `/trpc/catalog.search?batch=1&input=${encodeURIComponent(JSON.stringify({ 0: {} }))}`

describe('compressed kept answers', () => {
  it.each([
    ['gzip', 'gzip', zlib.gunzipSync],
    ['br', 'br', zlib.brotliDecompressSync],
    ['deflate', 'deflate', zlib.inflateSync],
    ['gzip, deflate, br', 'br', zlib.brotliDecompressSync],
  ])('sends a repeated call the same %s bytes and headers as the first', async (accept, encoding, decompress) => {
    const plain = await get(searchPath)
    expect(plain.status).toBe(200)
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.body.length).toBeGreaterThan(1024) // over the compression threshold

    const first = await get(searchPath, accept)
    const again = await get(searchPath, accept)
    expect(first.status).toBe(200)
    expect(first.headers['content-encoding']).toBe(encoding)
    expect(first.headers.vary).toMatch(/accept-encoding/)
    expect(Number(first.headers['content-length'])).toBe(first.body.length)
    expect(decompress(first.body).equals(plain.body)).toBe(true)
    expect(again).toEqual(first)
  })

  it('makes each copy once per kept answer and leaves other payloads alone', () => {
    const methods = keptAnswerZlib()
    const gzip = methods.gzipSync!
    const brotli = methods.brotliCompressSync!
    const kept = Buffer.from(JSON.stringify({ kept: 'x'.repeat(2000) }))
    const other = Buffer.from(JSON.stringify({ other: 'y'.repeat(2000) }))
    keepCompressedCopies(kept)
    const brotliOptions = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } }

    expect(gzip(kept)).toBe(gzip(kept))
    expect(gzip(kept).equals(zlib.gzipSync(kept))).toBe(true)
    expect(brotli(kept, brotliOptions)).toBe(brotli(kept, brotliOptions))
    expect(brotli(kept, brotliOptions).equals(zlib.brotliCompressSync(kept, brotliOptions))).toBe(true)
    // Other options are another copy.
    expect(brotli(kept, {}).equals(zlib.brotliCompressSync(kept, {}))).toBe(true)
    // A payload that is not a kept answer is compressed each time.
    expect(gzip(other)).not.toBe(gzip(other))
    expect(gzip(other).equals(zlib.gzipSync(other))).toBe(true)
  })
})
