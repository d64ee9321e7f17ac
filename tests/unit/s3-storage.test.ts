// The S3 storage (aws4fetch) against a fake S3 that really verifies SigV4 signatures and session tokens.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { s3OptionsFromEnv } from '../../src-server/kernel/s3-config.ts'
import { createS3Storage, type S3Options } from '../../src-server/storage/s3.ts'
import { parseListPage } from '../../src-server/storage/s3-list.ts'
import { type FakeS3, startFakeS3 } from '../support/fake-s3.ts'

const KEYS = { accessKeyId: 'AKIDSTORE', secretAccessKey: 'store/secret+key', region: 'eu-west-2' }
let plain: FakeS3
let temporary: FakeS3

beforeAll(async () => {
  plain = await startFakeS3({ ...KEYS, bucket: 'uploads', pageLimit: 2 })
  temporary = await startFakeS3({ ...KEYS, bucket: 'uploads', sessionToken: 'FwoGZXIvYXdzEXAMPLE//token=' })
})
afterAll(async () => {
  await plain.close()
  await temporary.close()
})

const storageOn = (fake: FakeS3, extra: Partial<S3Options> = {}) =>
  createS3Storage({ ...KEYS, bucket: fake.bucket, endpoint: fake.endpoint, ...extra })

async function listAll(storage: ReturnType<typeof createS3Storage>, prefix: string) {
  const keys: string[] = []
  for await (const file of storage.list(prefix)) keys.push(file.key)
  return keys
}

describe('S3 storage', () => {
  it('puts signed objects with their type and cache header, and returns their public URL', async () => {
    const storage = storageOn(plain, { publicUrl: 'https://cdn.example.test/uploads/' })
    const url = await storage.put('avatars/u1/avatar-1.png', Buffer.from('png-bytes'), 'image/png')
    expect(url).toBe('https://cdn.example.test/uploads/avatars/u1/avatar-1.png')
    expect(plain.objects.get('avatars/u1/avatar-1.png')).toMatchObject({
      body: Buffer.from('png-bytes'),
      contentType: 'image/png',
      cacheControl: 'public, max-age=3600',
    })
    expect(storage.keyFromUrl(url)).toBe('avatars/u1/avatar-1.png')
    expect(storage.keyFromUrl('https://elsewhere.example/x.png')).toBeNull()
    expect(storage.publicOrigin).toBe('https://cdn.example.test')
  })

  it('without S3_PUBLIC_URL, hands out the bucket URL, which the bucket serves', async () => {
    const storage = storageOn(plain)
    const url = await storage.put('courses/c-1.png', Buffer.from('cover'), 'image/png')
    expect(url).toBe(`${plain.endpoint}/uploads/courses/c-1.png`)
    expect(storage.publicOrigin).toBe(plain.endpoint)
    const read = await fetch(url)
    expect(read.status).toBe(200)
    expect(Buffer.from(await read.arrayBuffer()).toString()).toBe('cover')
  })

  it('lists every object under a prefix across pages (ListObjectsV2) and deletes by key', async () => {
    const storage = storageOn(plain)
    for (const name of ['a', 'b', 'c', 'd', 'e']) await storage.put(`sweep/${name}.png`, Buffer.from(name), 'image/png')
    await storage.put('other/x.png', Buffer.from('x'), 'image/png')
    const before = plain.log.length
    expect(await listAll(storage, 'sweep/')).toEqual(['a', 'b', 'c', 'd', 'e'].map((n) => `sweep/${n}.png`))
    // Five keys at two per page: three signed list requests, all accepted.
    const lists = plain.log.slice(before)
    expect(lists.map((entry) => entry.status)).toEqual([200, 200, 200])
    expect(lists[1]?.target).toContain('continuation-token=')
    for await (const file of storage.list('sweep/')) expect(file.lastModified).toBeInstanceOf(Date)
    await storage.remove('sweep/c.png')
    await storage.remove('sweep/never-there.png')
    expect(await listAll(storage, 'sweep/')).not.toContain('sweep/c.png')
    await expect(storage.put('../escape.png', Buffer.from('x'), 'image/png')).rejects.toThrow(/Unsafe/)
  })

  it('is refused when the signature is wrong, and stores nothing', async () => {
    const storage = storageOn(plain, { secretAccessKey: 'not-the-secret' })
    await expect(storage.put('courses/bad.png', Buffer.from('x'), 'image/png')).rejects.toThrow(
      /failed: 403 SignatureDoesNotMatch/,
    )
    expect(plain.objects.has('courses/bad.png')).toBe(false)
    await expect(listAll(storage, 'courses/')).rejects.toThrow(/403 SignatureDoesNotMatch/)
  })

  it('sends and signs the session token of temporary credentials, and fails without it', async () => {
    const token = 'FwoGZXIvYXdzEXAMPLE//token='
    await expect(storageOn(temporary).put('avatars/t.png', Buffer.from('t'), 'image/png')).rejects.toThrow(
      /403 InvalidToken/,
    )
    await expect(
      storageOn(temporary, { sessionToken: 'stale' }).put('avatars/t.png', Buffer.from('t'), 'image/png'),
    ).rejects.toThrow(/403 InvalidToken/)
    const storage = storageOn(temporary, { sessionToken: token })
    await storage.put('avatars/t.png', Buffer.from('t'), 'image/png')
    expect(await listAll(storage, 'avatars/')).toEqual(['avatars/t.png'])
    await storage.remove('avatars/t.png')
    expect(temporary.objects.size).toBe(0)
  })
})

describe('S3 credentials from the environment', () => {
  it('take S3_* keys with S3_SESSION_TOKEN, or else the AWS_* trio, never a mix', () => {
    const base = { S3_BUCKET: 'b', S3_REGION: 'eu-west-2' }
    expect(
      s3OptionsFromEnv({ ...base, S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's', S3_SESSION_TOKEN: 't' }),
    ).toMatchObject({ accessKeyId: 'k', secretAccessKey: 's', sessionToken: 't' })
    expect(
      s3OptionsFromEnv({ ...base, AWS_ACCESS_KEY_ID: 'ak', AWS_SECRET_ACCESS_KEY: 'as', AWS_SESSION_TOKEN: 'at' }),
    ).toMatchObject({ accessKeyId: 'ak', secretAccessKey: 'as', sessionToken: 'at' })
    const mixed = s3OptionsFromEnv({
      ...base,
      S3_ACCESS_KEY_ID: 'k',
      S3_SECRET_ACCESS_KEY: 's',
      AWS_SESSION_TOKEN: 'x',
    })
    expect(mixed?.sessionToken).toBeUndefined()
    expect(s3OptionsFromEnv({ S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' })).toBeNull()
  })
})

describe('parseListPage', () => {
  it('unescapes keys, reads dates and the next token, and refuses a truncated page without one', () => {
    const page = parseListPage(
      '<ListBucketResult><IsTruncated>true</IsTruncated><Contents><Key>courses/a&amp;b&#x2B;.png</Key>' +
        '<LastModified>2026-01-02T03:04:05.000Z</LastModified></Contents><NextContinuationToken>t&lt;1</NextContinuationToken></ListBucketResult>',
    )
    expect(page).toEqual({
      files: [{ key: 'courses/a&b+.png', lastModified: new Date('2026-01-02T03:04:05.000Z') }],
      nextContinuationToken: 't<1',
    })
    expect(() => parseListPage('<ListBucketResult><IsTruncated>true</IsTruncated></ListBucketResult>')).toThrow(
      'S3 list is truncated but gives no continuation token',
    )
    expect(() => parseListPage('<Error><Code>AccessDenied</Code></Error>')).toThrow(
      'S3 list answer is not a ListBucketResult',
    )
  })
})
