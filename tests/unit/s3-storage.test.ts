// SigV4 against AWS's published example, and the S3 storage against a small local S3 stand-in.
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createS3Storage } from '../../src-server/storage/s3.ts'
import { sha256Hex, signRequest } from '../../src-server/storage/sigv4.ts'

describe('signRequest', () => {
  it('matches the "GET Object" example of the AWS S3 SigV4 documentation', () => {
    const headers = signRequest({
      method: 'GET',
      url: new URL('https://examplebucket.s3.amazonaws.com/test.txt'),
      headers: { Range: 'bytes=0-9' },
      payloadHash: sha256Hex(''),
      accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
      secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      region: 'us-east-1',
      now: new Date('2013-05-24T00:00:00Z'),
    })
    expect(headers.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, ' +
        'SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, ' +
        'Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    )
  })
})

describe('S3 storage', () => {
  const objects = new Map<string, { body: Buffer; type: string | undefined }>()
  const seen: IncomingMessage[] = []
  let endpoint = ''
  const server = createServer(async (req, res) => {
    seen.push(req)
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const body = Buffer.concat(chunks)
    const signed = String(req.headers.authorization).startsWith('AWS4-HMAC-SHA256 Credential=key-id/')
    const hashOk = req.headers['x-amz-content-sha256'] === sha256Hex(body)
    if (!signed || !hashOk) return void res.writeHead(403).end('SignatureDoesNotMatch')
    if (req.method === 'PUT') objects.set(req.url!, { body, type: req.headers['content-type'] })
    if (req.method === 'DELETE') objects.delete(req.url!)
    res.writeHead(req.method === 'DELETE' ? 204 : 200).end()
  })
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it('puts signed objects, returns their public URL and deletes them by key', async () => {
    const storage = createS3Storage({
      bucket: 'avatars',
      region: 'eu-west-2',
      endpoint,
      accessKeyId: 'key-id',
      secretAccessKey: 'secret',
      publicUrl: 'https://cdn.example.test/avatars',
    })
    const url = await storage.put('avatars/u1/avatar-1.png', Buffer.from('png-bytes'), 'image/png')
    expect(url).toBe('https://cdn.example.test/avatars/avatars/u1/avatar-1.png')
    expect(objects.get('/avatars/avatars/u1/avatar-1.png')).toEqual({
      body: Buffer.from('png-bytes'),
      type: 'image/png',
    })
    expect(seen.at(-1)?.headers['cache-control']).toBe('public, max-age=3600')
    expect(storage.keyFromUrl(url)).toBe('avatars/u1/avatar-1.png')
    expect(storage.keyFromUrl('https://elsewhere.example/x.png')).toBeNull()
    await storage.remove('avatars/u1/avatar-1.png')
    expect(objects.size).toBe(0)
    await expect(storage.put('../escape.png', Buffer.from('x'), 'image/png')).rejects.toThrow(/Unsafe/)
  })

  it('reports a refusal from the bucket as an error', async () => {
    const storage = createS3Storage({
      bucket: 'b',
      region: 'us-east-1',
      endpoint,
      accessKeyId: 'wrong',
      secretAccessKey: 's',
    })
    await expect(storage.put('a.png', Buffer.from('x'), 'image/png')).rejects.toThrow(/failed with 403/)
  })
})
