// An applicant's CV sent while storage fails (the bucket down or silent): the route answers with a sentence the
// application form shows, not "Something went wrong" nor the bucket's own words; nothing is stored; the same file is
// taken once storage is back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SESSION_COOKIE } from '../../../src-server/auth/session.ts'
import { ATTACHMENT_NOT_STORED } from '../../../src-server/http/creator-applications.ts'
import { createSessionToken, createUser } from '../../support/factories.ts'
import { type ServerOnFailingStorage, serverOnFailingStorage } from '../../support/failing-storage.ts'

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n')

let site: ServerOnFailingStorage

beforeAll(async () => {
  site = await serverOnFailingStorage('cv-outage-', 'S3 PUT private/applications/x.pdf failed: 503 SlowDown')
})
afterAll(() => site?.close())

async function sendCv(cookie: string) {
  const body = new FormData()
  body.append('file', new Blob([new Uint8Array(PDF)]), 'cv.pdf')
  const response = await fetch(`${site.baseUrl}/api/creator-applications/attachment`, {
    method: 'POST',
    body,
    headers: { cookie, origin: 'http://storefront.test' },
  })
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    body: (await response.json()) as { key?: string; message?: string },
  }
}

describe('an applicant’s CV while storage fails', () => {
  it('answers a sentence of ours, stores nothing, and takes the file once storage is back', async () => {
    const user = await createUser(site.db)
    const { token } = await createSessionToken(site.db, user.id)
    const cookie = `${SESSION_COOKIE}=${token}`
    site.storage.down = true
    try {
      const failed = await sendCv(cookie)
      // As every storage failure answers (decision 0121), with the CV's own sentence.
      expect(failed).toEqual({
        status: 503,
        retryAfter: '5',
        body: { error: 'Service Unavailable', message: ATTACHMENT_NOT_STORED },
      })
    } finally {
      site.storage.down = false
    }
    const stored = await sendCv(cookie)
    expect(stored.status).toBe(200)
    expect(stored.body.key).toMatch(/\.pdf$/)
  })
})
