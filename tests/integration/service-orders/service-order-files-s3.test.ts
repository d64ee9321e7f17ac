// Service-order files on an S3 bucket (the fake verifies SigV4 and keeps the private/ prefix closed to anonymous
// reads, as the README's bucket policy does): an upload lands under private/, the download route streams it to the
// order's buyer and staff with the app's signed read, and everyone else gets 404 (401 without a session); the
// bucket itself refuses the object to an anonymous GET and /uploads never serves it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SESSION_COOKIE } from '../../../src-server/auth/session.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { STORAGE_UNAVAILABLE_MESSAGE } from '../../../src-shared/errors.ts'
import type { Role } from '../../../src-shared/roles.ts'
import { createTestDatabase } from '../../support/db.ts'
import { callerAs, createSessionToken, createUser } from '../../support/factories.ts'
import { type FakeS3, startFakeS3 } from '../../support/fake-s3.ts'
import { startTestServer, type TestServer } from '../../support/http.ts'
import { paidServiceOrder } from '../../support/service-orders.ts'

const CREDENTIALS = { accessKeyId: 'AKIDSHOP', secretAccessKey: 'shop-secret', region: 'eu-west-1' }
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n')

let database: DatabaseHandle
let bucket: FakeS3
let server: TestServer
const db = () => database.db

beforeAll(async () => {
  database = await createTestDatabase()
  bucket = await startFakeS3({ ...CREDENTIALS, bucket: 'shop-uploads', privatePrefixes: ['private/'] })
  server = await startTestServer(database.db, {
    env: {
      S3_BUCKET: 'shop-uploads',
      S3_REGION: CREDENTIALS.region,
      S3_ENDPOINT: bucket.endpoint,
      S3_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
    },
  })
})
afterAll(async () => {
  await server?.stop()
  await bucket?.close()
  await database?.close()
})

async function person(role: Role = 'customer') {
  const user = await createUser(db(), { role })
  const { token } = await createSessionToken(db(), user.id)
  return { user, cookie: `${SESSION_COOKIE}=${token}`, caller: await callerAs(db(), user) }
}

async function upload(cookie: string, orderId: string, purpose: string, bytes: Buffer, name: string) {
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(bytes)]), name)
  const response = await fetch(`${server.baseUrl}/api/service-orders/${orderId}/files?purpose=${purpose}`, {
    method: 'POST',
    headers: { cookie, origin: 'http://storefront.test' },
    body: form,
  })
  return { status: response.status, body: (await response.json()) as { id: string; url: string } }
}

const download = (cookie: string, url: string) => fetch(`${server.baseUrl}${url}`, { headers: { cookie } })

describe('service-order files on S3', () => {
  it('answers a bucket in trouble with 503, our sentence and Retry-After, keeps no row, and works once it is back', async () => {
    const buyer = await person()
    const id = await paidServiceOrder(db(), buyer.user.id)
    const stored = await upload(buyer.cookie, id, 'brief', PDF, 'before.pdf')
    expect(stored.status).toBe(200)
    const filesOf = async () =>
      (
        await db().selectFrom('service_order_files').select('file_name').where('service_order_id', '=', id).execute()
      ).map((row) => row.file_name)
    bucket.down = true
    try {
      const form = new FormData()
      form.append('file', new Blob([new Uint8Array(PDF)]), 'during.pdf')
      const refused = await fetch(`${server.baseUrl}/api/service-orders/${id}/files?purpose=brief`, {
        method: 'POST',
        headers: { cookie: buyer.cookie, origin: 'http://storefront.test' },
        body: form,
      })
      expect(refused.status).toBe(503)
      expect(refused.headers.get('retry-after')).toBe('5')
      const text = await refused.text()
      expect(JSON.parse(text)).toMatchObject({ message: STORAGE_UNAVAILABLE_MESSAGE })
      expect(text).not.toMatch(/SlowDown|shop-uploads|private\//)
      expect(await filesOf()).toEqual(['before.pdf'])
      const unread = await download(buyer.cookie, stored.body.url)
      expect(unread.status).toBe(503)
      expect(((await unread.json()) as { message: string }).message).toBe(STORAGE_UNAVAILABLE_MESSAGE)
    } finally {
      bucket.down = false
    }
    expect((await upload(buyer.cookie, id, 'brief', PDF, 'after.pdf')).status).toBe(200)
    expect((await filesOf()).sort()).toEqual(['after.pdf', 'before.pdf'])
    expect((await download(buyer.cookie, stored.body.url)).status).toBe(200)
  })

  it('stores a brief file under private/ in the bucket and serves it to the buyer and staff only', async () => {
    const buyer = await person()
    const id = await paidServiceOrder(db(), buyer.user.id)
    const stored = await upload(buyer.cookie, id, 'brief', PDF, 'passport.pdf')
    expect(stored.status).toBe(200)
    const row = await db()
      .selectFrom('service_order_files')
      .select('storage_key')
      .where('id', '=', stored.body.id)
      .executeTakeFirstOrThrow()
    expect(row.storage_key).toMatch(/^private\/service-orders\//)
    expect(bucket.objects.get(row.storage_key)?.body.equals(PDF)).toBe(true)

    const reads = () => bucket.log.filter((entry) => entry.method === 'GET' && entry.target.includes(row.storage_key))
    const own = await download(buyer.cookie, stored.body.url)
    expect(own.status).toBe(200)
    expect(own.headers.get('content-type')).toBe('application/pdf')
    expect(own.headers.get('content-disposition')).toBe('attachment; filename="passport.pdf"')
    expect(Buffer.from(await own.arrayBuffer()).equals(PDF)).toBe(true)
    // The app read it from the bucket with its own (signed) request: the private prefix admits nothing else.
    expect(reads().map((entry) => entry.status)).toEqual([200])

    const viewer = await person('viewer')
    const staffRead = await download(viewer.cookie, stored.body.url)
    expect(staffRead.status).toBe(200)
    expect(Buffer.from(await staffRead.arrayBuffer()).equals(PDF)).toBe(true)

    // Another buyer, nobody, and a made-up file id of the same order: nothing, and no read from the bucket.
    const before = reads().length
    const stranger = await person()
    expect((await download(stranger.cookie, stored.body.url)).status).toBe(404)
    expect((await download('', stored.body.url)).status).toBe(401)
    const guessed = `/api/service-orders/${id}/files/00000000-0000-4000-8000-000000000000`
    expect((await download(buyer.cookie, guessed)).status).toBe(404)
    expect(reads()).toHaveLength(before)

    // The object has no public URL: the bucket refuses an anonymous GET, and /uploads does not serve it.
    const direct = await fetch(`${bucket.endpoint}/${bucket.bucket}/${row.storage_key}`)
    expect(direct.status).toBe(403)
    expect((await fetch(`${server.baseUrl}/uploads/${row.storage_key}`)).status).not.toBe(200)
  })

  it('keeps an internal note’s file from the buyer, and another buyer’s files from everyone but staff', async () => {
    const buyer = await person()
    const id = await paidServiceOrder(db(), buyer.user.id)
    const editor = await person('editor')
    const note = await upload(editor.cookie, id, 'message', PDF, 'internal.pdf')
    expect(note.status).toBe(200)
    await editor.caller.admin.serviceOrders.sendMessage({
      id,
      body: 'For the team',
      internal: true,
      fileIds: [note.body.id],
    })
    expect((await download(editor.cookie, note.body.url)).status).toBe(200)
    expect((await download(buyer.cookie, note.body.url)).status).toBe(404)

    // A second buyer's own file is not readable through the first buyer's order id either.
    const other = await person()
    const otherId = await paidServiceOrder(db(), other.user.id)
    const theirs = await upload(other.cookie, otherId, 'brief', PDF, 'theirs.pdf')
    expect((await download(buyer.cookie, theirs.body.url)).status).toBe(404)
    const crossed = `/api/service-orders/${id}/files/${theirs.body.id}`
    expect((await download(buyer.cookie, crossed)).status).toBe(404)
    expect((await download(other.cookie, theirs.body.url)).status).toBe(200)
  })
})
