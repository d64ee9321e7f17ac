// Service-order files over HTTP on the real server: content checks and the size limit, private storage (never
// under /uploads), and downloads only for the order's buyer and staff (internal notes' files for staff only).
import { readdir } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { SESSION_COOKIE } from '../../../src-server/auth/session.ts'
import { removeBriefFile } from '../../../src-server/service-orders/files.ts'
import { createLocalStorage, type FileStorage } from '../../../src-server/storage/storage.ts'
import { hasRole, type Role, STAFF_ROLES } from '../../../src-shared/roles.ts'
import { callerAs, createSessionToken, createUser } from '../../support/factories.ts'
import { paidServiceOrder, ukBrief } from '../../support/service-orders.ts'
import { serveForThisFile } from '../../support/test-server.ts'

// Behind a proxy, so a test can upload from its own client address (uploads are rate limited per client).
const site = serveForThisFile({ env: { TRUST_PROXY: true, STAFF_2FA: 'required' } })

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n')
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
)

/** A signed-in person; staff have a second factor, as STAFF_2FA=required asks of admins (`secondFactor: false`: none). */
async function person(role: Role = 'customer', secondFactor = role !== 'customer') {
  const user = await createUser(site.db, { role })
  if (secondFactor) {
    await site.db
      .insertInto('user_totp')
      .values({ user_id: user.id, secret: 'test', confirmed_at: new Date() })
      .execute()
  }
  const { token } = await createSessionToken(site.db, user.id)
  return { user, cookie: `${SESSION_COOKIE}=${token}`, caller: await callerAs(site.db, user) }
}

async function upload(cookie: string, orderId: string, purpose: string, bytes: Buffer, name: string, from = '') {
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(bytes)]), name)
  const response = await fetch(`${site.baseUrl}/api/service-orders/${orderId}/files?purpose=${purpose}`, {
    method: 'POST',
    headers: { cookie, origin: 'http://storefront.test', ...(from && { 'x-forwarded-for': from }) },
    body: form,
  })
  return { status: response.status, body: (await response.json()) as { id: string; url: string; message?: string } }
}

const download = (cookie: string, url: string) => fetch(`${site.baseUrl}${url}`, { headers: { cookie } })

describe('service-order files', () => {
  it('stores a brief file privately and serves it to the buyer and staff only', async () => {
    const buyer = await person()
    const id = await paidServiceOrder(site.db, buyer.user.id)
    const stored = await upload(buyer.cookie, id, 'brief', PDF, 'passport.pdf')
    expect(stored.status).toBe(200)
    expect(stored.body.url).toBe(`/api/service-orders/${id}/files/${stored.body.id}`)

    const own = await download(buyer.cookie, stored.body.url)
    expect(own.status).toBe(200)
    expect(own.headers.get('content-type')).toBe('application/pdf')
    expect(own.headers.get('content-disposition')).toBe('attachment; filename="passport.pdf"')
    expect(Buffer.from(await own.arrayBuffer()).equals(PDF)).toBe(true)

    const viewer = await person('viewer')
    expect((await download(viewer.cookie, stored.body.url)).status).toBe(200)
    // An admin without the second factor STAFF_2FA requires has no staff reach: not found, as for a stranger.
    const admin = await person('admin', false)
    expect((await download(admin.cookie, stored.body.url)).status).toBe(404)
    expect((await upload(admin.cookie, id, 'delivery', PDF, 'x.pdf', '198.51.100.7')).status).toBe(404)
    const stranger = await person()
    expect((await download(stranger.cookie, stored.body.url)).status).toBe(404)
    expect((await download('', stored.body.url)).status).toBe(401)

    // Not reachable under the public uploads route, however the path is spelled.
    const row = await site.db
      .selectFrom('service_order_files')
      .select('storage_key')
      .where('id', '=', stored.body.id)
      .executeTakeFirstOrThrow()
    expect(row.storage_key).toMatch(/^private\/service-orders\/[0-9a-f-]{36}\/[0-9a-f]{32}\.pdf$/)
    for (const path of [
      `/uploads/${row.storage_key}`,
      `/uploads//${row.storage_key}`,
      `/uploads/%70rivate/${row.storage_key.slice(8)}`,
    ]) {
      const response = await fetch(`${site.baseUrl}${path}`)
      expect([path, response.status]).not.toEqual([path, 200])
    }

    // A stranger can't add files to someone else's order either.
    expect((await upload(stranger.cookie, id, 'brief', PDF, 'x.pdf')).status).toBe(404)
  })

  it('judges files by their bytes and refuses big ones', async () => {
    const buyer = await person()
    const id = await paidServiceOrder(site.db, buyer.user.id)
    const fake = await upload(buyer.cookie, id, 'brief', Buffer.from('MZ not a pdf'), 'invoice.pdf')
    expect(fake.status).toBe(400)
    expect(fake.body.message).toBe('Please choose a PDF, an image or an office document')
    const zipNotOffice = await upload(buyer.cookie, id, 'brief', Buffer.from('PK\u0003\u0004 plain zip'), 'a.docx')
    expect(zipNotOffice.status).toBe(400)
    expect((await upload(buyer.cookie, id, 'brief', PNG, 'photo.png')).status).toBe(200)
    const big = Buffer.concat([PDF, Buffer.alloc(11 * 1024 * 1024)])
    const tooBig = await upload(buyer.cookie, id, 'brief', big, 'big.pdf')
    expect(tooBig.status).toBe(413)
    expect(tooBig.body.message).toBe('Files must be smaller than 10MB')
  })

  it('locks brief files after submission, lets only staff deliver, and hides internal notes’ files', async () => {
    const buyer = await person()
    const id = await paidServiceOrder(site.db, buyer.user.id)
    await buyer.caller.serviceOrders.submitBrief({ id, brief: ukBrief })
    expect((await upload(buyer.cookie, id, 'brief', PDF, 'late.pdf')).status).toBe(403)
    expect((await upload(buyer.cookie, id, 'delivery', PDF, 'mine.pdf')).status).toBe(403)

    const editor = await person('editor')
    const note = await upload(editor.cookie, id, 'message', PDF, 'internal.pdf')
    await editor.caller.admin.serviceOrders.sendMessage({
      id,
      body: 'For the team',
      internal: true,
      fileIds: [note.body.id],
    })
    expect((await download(editor.cookie, note.body.url)).status).toBe(200)
    expect((await download(buyer.cookie, note.body.url)).status).toBe(404)

    await editor.caller.admin.serviceOrders.start({ id })
    const deliverable = await upload(editor.cookie, id, 'delivery', PDF, 'certificate.pdf')
    // Not yet delivered: only its uploader can read it.
    expect((await download(buyer.cookie, deliverable.body.url)).status).toBe(404)
    await editor.caller.admin.serviceOrders.deliver({ id, note: 'Here it is', fileIds: [deliverable.body.id] })
    expect((await download(buyer.cookie, deliverable.body.url)).status).toBe(200)
    const detail = await buyer.caller.serviceOrders.detail({ id })
    expect(detail.deliveries[0]?.files.map((f) => f.name)).toEqual(['certificate.pdf'])
    // A file id can be attached once, by its uploader only.
    await expect(
      editor.caller.admin.serviceOrders.sendMessage({ id, body: 'again', fileIds: [deliverable.body.id] }),
    ).rejects.toThrow('An attachment could not be found')
  })

  // Viewers are read-only: a file they upload would sit in a buyer's order, never attached and never swept.
  it.each(STAFF_ROLES)('staff file uploads need editor or above: %s', async (role) => {
    const from = `203.0.113.${STAFF_ROLES.indexOf(role) + 1}`
    const buyer = await person()
    const id = await paidServiceOrder(site.db, buyer.user.id)
    const staff = await person(role)
    const allowed = hasRole(role, 'editor')
    for (const purpose of ['message', 'delivery']) {
      const answer = await upload(staff.cookie, id, purpose, PDF, `${purpose}.pdf`, from)
      expect([purpose, answer.status]).toEqual([purpose, allowed ? 200 : 403])
    }
    const rows = await site.db
      .selectFrom('service_order_files')
      .select('purpose')
      .where('service_order_id', '=', id)
      .execute()
    const stored = await readdir(path.join(site.uploadsDir, 'private/service-orders', id)).catch(() => [])
    expect(rows.length).toBe(allowed ? 2 : 0)
    expect(stored.length).toBe(allowed ? 2 : 0)
    // The buyer can still add a file to their own order's thread.
    expect((await upload(buyer.cookie, id, 'message', PDF, 'mine.pdf', from)).status).toBe(200)
  })

  it('a brief file removed while storage fails to delete its bytes: removed as asked (the sweep deletes the bytes later)', async () => {
    const buyer = await person()
    const id = await paidServiceOrder(site.db, buyer.user.id)
    const stored = await upload(buyer.cookie, id, 'brief', PDF, 'passport.pdf', '203.0.113.91')
    expect(stored.status).toBe(200)
    const local = createLocalStorage(site.uploadsDir)
    const failing: FileStorage = {
      ...local,
      stagingDir: local.stagingDir,
      publicOrigin: local.publicOrigin,
      remove: () => Promise.reject(new Error('S3 DELETE failed: 503 SlowDown')),
    }
    await removeBriefFile(site.db, failing, buyer.user, id, stored.body.id)
    const left = await site.db
      .selectFrom('service_order_files')
      .select('id')
      .where('service_order_id', '=', id)
      .execute()
    expect(left).toEqual([])
    expect((await download(buyer.cookie, stored.body.url)).status).toBe(404)
  })
})
