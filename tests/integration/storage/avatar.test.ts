// POST /api/profile/avatar on the real server: content checks, the 2 MB limit, replacement and rate limit.
import { existsSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { SESSION_COOKIE } from '../../../src-server/auth/session.ts'
import { StorageFailure } from '../../../src-server/kernel/storage-failure.ts'
import { createLocalStorage } from '../../../src-server/storage/storage.ts'
import { STORAGE_UNAVAILABLE_MESSAGE } from '../../../src-shared/errors.ts'
import { createSessionToken, createUser } from '../../support/factories.ts'
import { startTestServer } from '../../support/http.ts'
import { serveForThisFile } from '../../support/test-server.ts'

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
)

const site = serveForThisFile()

async function signedIn() {
  const user = await createUser(site.db)
  const { token } = await createSessionToken(site.db, user.id)
  return { user, cookie: `${SESSION_COOKIE}=${token}` }
}

function upload(cookie: string, bytes: Buffer, name: string, type = 'image/png') {
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), name)
  return fetch(`${site.baseUrl}/api/profile/avatar`, {
    method: 'POST',
    headers: { cookie, origin: 'http://storefront.test' },
    body: form,
  })
}

const avatarOf = (userId: string) =>
  site.db.selectFrom('users').select('avatar_url').where('id', '=', userId).executeTakeFirstOrThrow()
const fileOf = (url: string) => path.join(site.uploadsDir, url.replace('/uploads/', ''))

describe('avatar upload', () => {
  it('needs a signed-in user', async () => {
    const response = await upload('', PNG, 'me.png')
    expect(response.status).toBe(401)
    expect(((await response.json()) as { message: string }).message).toBe('User not authenticated')
  })

  it('refuses a non-image renamed .png, judged by its content', async () => {
    const { user, cookie } = await signedIn()
    const response = await upload(cookie, Buffer.from('<?php echo "not an image"; ?>'), 'photo.png', 'image/png')
    expect(response.status).toBe(400)
    expect(((await response.json()) as { message: string }).message).toBe('Please select an image file')
    expect((await avatarOf(user.id)).avatar_url).toBeNull()
  })

  it('refuses a 3 MB image with the size message', async () => {
    const { user, cookie } = await signedIn()
    const big = Buffer.concat([PNG, Buffer.alloc(3 * 1024 * 1024)])
    const response = await upload(cookie, big, 'big.png')
    expect(response.status).toBe(413)
    expect(((await response.json()) as { message: string }).message).toBe('Image size should be less than 2MB')
    expect((await avatarOf(user.id)).avatar_url).toBeNull()
  })

  it('stores a real image under the user, serves it, and removes the previous file', async () => {
    const { user, cookie } = await signedIn()
    const first = await upload(cookie, PNG, 'whatever.gif', 'application/octet-stream')
    expect(first.status).toBe(200)
    const { avatarUrl, message } = (await first.json()) as { avatarUrl: string; message: string }
    expect(message).toBe('Profile image updated successfully!')
    expect(avatarUrl).toMatch(new RegExp(`^/uploads/avatars/${user.id}/avatar-[a-z0-9]+\\.png$`))
    expect((await avatarOf(user.id)).avatar_url).toBe(avatarUrl)
    const served = await fetch(`${site.baseUrl}${avatarUrl}`)
    expect(served.status).toBe(200)
    expect(Buffer.from(await served.arrayBuffer())).toEqual(PNG)

    await new Promise((resolve) => setTimeout(resolve, 5)) // a new key per upload
    const second = (await (await upload(cookie, PNG, 'again.png')).json()) as { avatarUrl: string }
    expect(second.avatarUrl).not.toBe(avatarUrl)
    expect(existsSync(fileOf(second.avatarUrl))).toBe(true)
    expect(existsSync(fileOf(avatarUrl))).toBe(false)
  })

  it('ignores a previous file that is already gone', async () => {
    const { user, cookie } = await signedIn()
    const first = (await (await upload(cookie, PNG, 'a.png')).json()) as { avatarUrl: string }
    await rm(fileOf(first.avatarUrl))
    await new Promise((resolve) => setTimeout(resolve, 5))
    const second = await upload(cookie, PNG, 'b.png')
    expect(second.status).toBe(200)
    expect((await avatarOf(user.id)).avatar_url).toBe(((await second.json()) as { avatarUrl: string }).avatarUrl)
  })

  it('answers storage failing with 503, the storage sentence and Retry-After, and keeps the photo it had', async () => {
    const failing = await startTestServer(site.db, {
      storage: {
        ...createLocalStorage(site.uploadsDir),
        async put(): Promise<string> {
          throw new StorageFailure('S3 PUT avatars/x.png failed: 503 SlowDown')
        },
      },
    })
    try {
      const { user, cookie } = await signedIn()
      const form = new FormData()
      form.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'me.png')
      const response = await fetch(`${failing.baseUrl}/api/profile/avatar`, {
        method: 'POST',
        headers: { cookie, origin: 'http://storefront.test' },
        body: form,
      })
      expect(response.status).toBe(503)
      expect(response.headers.get('retry-after')).toBe('5')
      const text = await response.text()
      expect(JSON.parse(text)).toMatchObject({ message: STORAGE_UNAVAILABLE_MESSAGE })
      expect(text).not.toMatch(/SlowDown|avatars\//)
      expect((await avatarOf(user.id)).avatar_url).toBeNull()
    } finally {
      await failing.stop()
    }
  })

  it('is rate limited per client', async () => {
    const limited = await startTestServer(site.db)
    try {
      const { cookie } = await signedIn()
      const statuses: number[] = []
      for (let i = 0; i < 11; i++) {
        const form = new FormData()
        form.append('file', new Blob([new Uint8Array(Buffer.from('nope'))]), 'x.png')
        const response = await fetch(`${limited.baseUrl}/api/profile/avatar`, {
          method: 'POST',
          headers: { cookie, origin: 'http://storefront.test' },
          body: form,
        })
        statuses.push(response.status)
      }
      expect(statuses.slice(0, 10).every((status) => status === 400)).toBe(true)
      expect(statuses[10]).toBe(429)
    } finally {
      await limited.stop()
    }
  })
})
