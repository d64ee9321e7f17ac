// Which Accept-Encoding headers get a gzipped page (the catch-all that sends pages is outside @fastify/compress).
import type { FastifyRequest } from 'fastify'
import { describe, expect, it } from 'vitest'
import { acceptsGzip } from '../../src-server/http/compress-page.ts'

const requestWith = (acceptEncoding?: string) => ({ headers: { 'accept-encoding': acceptEncoding } }) as FastifyRequest

describe('acceptsGzip', () => {
  it.each([
    ['gzip, deflate, br, zstd', true],
    ['br;q=1.0, gzip;q=0.8', true],
    ['*', true],
    ['GZIP', true],
    ['gzip;q=0', false],
    ['gzip;q=0.0, br', false],
    ['br, deflate', false],
    ['identity', false],
    ['', false],
    [undefined, false],
  ])('%s → %s', (header, expected) => {
    expect(acceptsGzip(requestWith(header))).toBe(expected)
  })
})
