// A lesson's file downloaded while storage fails (decision 0121): the answer is 503 with Retry-After and our sentence,
// never a download. When the bucket answered the file's size and then failed its bytes, the headers the download had
// set (an attachment's name, a range, the file's type) must not stay on the error, or the browser would save the JSON
// error as "notes.txt"; once storage is back the same link downloads the file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SESSION_COOKIE } from '../../../src-server/auth/session.ts'
import { STORAGE_UNAVAILABLE_MESSAGE } from '../../../src-shared/errors.ts'
import { createSessionToken } from '../../support/factories.ts'
import { type ServerOnFailingStorage, serverOnFailingStorage } from '../../support/failing-storage.ts'
import { buyerOfCourse, lessonsOf, storedAttachment } from '../../support/learning.ts'

const COURSE = 'modern-react-typescript'
let site: ServerOnFailingStorage
let url: string
let cookie: string

beforeAll(async () => {
  site = await serverOnFailingStorage('download-outage-', 'S3 GET private/lessons/outage/notes.txt failed: 503')
  const locked = (await lessonsOf(site.db, COURSE)).find((lesson) => !lesson.is_preview)!
  const attachment = await storedAttachment(site.db, site.storage.dir, locked.id, 'private/lessons/outage/notes.txt')
  url = `${site.baseUrl}${attachment.url}`
  const { user } = await buyerOfCourse(site.db, COURSE)
  cookie = `${SESSION_COOKIE}=${(await createSessionToken(site.db, user.id)).token}`
})
afterAll(() => site?.close())

async function expectStorageUnavailable(response: Response) {
  expect(response.status).toBe(503)
  expect(response.headers.get('retry-after')).toBe('5')
  expect(response.headers.get('content-type')).toMatch(/^application\/json/)
  for (const header of ['content-disposition', 'content-range', 'accept-ranges']) {
    expect(response.headers.get(header), header).toBeNull()
  }
  expect(await response.json()).toMatchObject({ message: STORAGE_UNAVAILABLE_MESSAGE })
}

describe('a lesson file while storage fails', () => {
  it('storage down: 503 with our sentence, no download', async () => {
    site.storage.down = true
    try {
      await expectStorageUnavailable(await fetch(url, { headers: { cookie } }))
    } finally {
      site.storage.down = false
    }
  })

  it('the size answered, the bytes not: 503 without the download’s headers, whole or by range', async () => {
    site.storage.readsDown = true
    try {
      await expectStorageUnavailable(await fetch(url, { headers: { cookie } }))
      await expectStorageUnavailable(await fetch(url, { headers: { cookie, range: 'bytes=0-3' } }))
    } finally {
      site.storage.readsDown = false
    }
  })

  it('downloads once storage is back', async () => {
    const response = await fetch(url, { headers: { cookie } })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-disposition')).toContain('attachment')
    expect(await response.text()).toBe('lesson notes')
  })
})
