// The real server with uploads on an S3-compatible bucket (a fake that verifies SigV4 and the session token),
// no S3_PUBLIC_URL: as the README's MinIO example runs. The bucket's origin must reach the CSP's img-src, and a
// course image uploaded there (an http URL) must save with the course.
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SESSION_COOKIE } from '../../../src-server/auth/session.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { COURSE_IMAGE_REFUSED } from '../../../src-shared/schemas/admin.ts'
import { createTestDatabase } from '../../support/db.ts'
import { createSessionToken, createUser } from '../../support/factories.ts'
import { type FakeS3, readmeS3Permissions, startFakeS3 } from '../../support/fake-s3.ts'
import { startTestServer, type TestServer, trpcPost } from '../../support/http.ts'

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
)
const CREDENTIALS = { accessKeyId: 'AKIDSHOP', secretAccessKey: 'shop-secret', region: 'eu-west-1' }
const SESSION_TOKEN = 'IQoJb3JpZ2luX2VjEXAMPLE/session+token='

let database: DatabaseHandle
let bucket: FakeS3
let server: TestServer
let cookie: string
let categoryId: string

beforeAll(async () => {
  database = await createTestDatabase()
  bucket = await startFakeS3({
    ...CREDENTIALS,
    bucket: 'shop-uploads',
    sessionToken: SESSION_TOKEN,
    permissions: readmeS3Permissions(),
  })
  server = await startTestServer(database.db, {
    env: {
      S3_BUCKET: 'shop-uploads',
      S3_REGION: CREDENTIALS.region,
      S3_ENDPOINT: bucket.endpoint,
      S3_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
      S3_SESSION_TOKEN: SESSION_TOKEN,
    },
  })
  const editor = await createUser(database.db, { role: 'editor' })
  cookie = `${SESSION_COOKIE}=${(await createSessionToken(database.db, editor.id)).token}`
  const category = await database.db.selectFrom('categories').select('id').executeTakeFirstOrThrow()
  categoryId = category.id
})
afterAll(async () => {
  await server?.stop()
  await bucket?.close()
  await database?.close()
})

async function uploadCourseImage() {
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'cover.png')
  const response = await fetch(`${server.baseUrl}/api/admin/course-image`, {
    method: 'POST',
    headers: { cookie, origin: 'http://storefront.test' },
    body: form,
  })
  expect(response.status).toBe(200)
  return ((await response.json()) as { url: string }).url
}

const createCourse = (imageUrl: string) =>
  trpcPost(
    server.baseUrl,
    'admin.courses.create',
    { title: `Course with ${imageUrl}`, description: 'd', price: '10.00', categoryId, imageUrl },
    { cookie },
  )

describe('uploads on an S3 bucket without S3_PUBLIC_URL', () => {
  it("puts the bucket's origin in the CSP's img-src", async () => {
    const response = await fetch(`${server.baseUrl}/healthz`)
    const imgSrc = (response.headers.get('content-security-policy') ?? '')
      .split(';')
      .map((directive) => directive.trim())
      .find((directive) => directive.startsWith('img-src '))
    expect(imgSrc?.split(' ')).toContain(bucket.endpoint)
  })

  it('stores a course image in the bucket (signed, with the session token) and saves the course with it', async () => {
    const url = await uploadCourseImage()
    expect(url).toMatch(new RegExp(`^${bucket.endpoint}/shop-uploads/courses/[\\w-]+\\.png$`))
    expect(bucket.objects.get(url.slice(`${bucket.endpoint}/shop-uploads/`.length))?.body).toEqual(PNG)
    expect(bucket.log.every((entry) => entry.status < 400)).toBe(true)

    const saved = await createCourse(url)
    expect(saved.status).toBe(200)
    const course = ((await saved.json()) as { result: { data: { id: string; imageUrl: string } } }).result.data
    expect(course.imageUrl).toBe(url)
    // And the browser can read it from there (the public-read policy of the README).
    expect((await fetch(url)).status).toBe(200)
  })

  it('refuses image URLs the storage did not produce, with the form message', async () => {
    for (const foreign of [
      'http://evil.example/courses/x.png',
      'https://evil.example/x.png',
      `${bucket.endpoint}/other-bucket/courses/x.png`,
      `${bucket.endpoint}/shop-uploads/avatars/u/x.png`,
      '/uploads/courses/local.png',
    ]) {
      const response = await createCourse(foreign)
      expect(response.status, foreign).toBe(400)
      expect(((await response.json()) as { error: { message: string } }).error.message).toBe(COURSE_IMAGE_REFUSED)
    }
  })
})

describe('lesson videos on S3', () => {
  it('streams the upload into the bucket (signed with the SHA-256 of its bytes) and reads its length back by ranges', async () => {
    const video = await readFile(path.resolve('db/seed/media/walkthrough.webm'))
    const form = new FormData()
    form.append('file', new Blob([new Uint8Array(video)], { type: 'video/webm' }), 'walkthrough.webm')
    const response = await fetch(`${server.baseUrl}/api/admin/lesson-video`, {
      method: 'POST',
      headers: { cookie, origin: 'http://storefront.test' },
      body: form,
    })
    expect(response.status).toBe(200)
    const stored = (await response.json()) as { key: string; durationSeconds: number }
    expect(stored.durationSeconds).toBe(120)
    expect(bucket.objects.get(stored.key)?.body).toEqual(video)
    expect(bucket.objects.get(stored.key)?.cacheControl).toBe('private, no-store')
    expect(bucket.log.every((entry) => entry.status < 400)).toBe(true)

    const lesson = await database.db
      .selectFrom('lessons')
      .select(['id', 'course_id'])
      .where('kind', '=', 'article')
      .limit(1)
      .executeTakeFirstOrThrow()
    const saved = await trpcPost(
      server.baseUrl,
      'admin.courses.updateLessonContent',
      {
        courseId: lesson.course_id,
        lessonId: lesson.id,
        kind: 'video',
        bodyMarkdown: '',
        videoUrl: '',
        videoKey: stored.key,
        attachments: [],
      },
      { cookie },
    )
    expect(saved.status).toBe(200)
    const row = await database.db
      .selectFrom('lessons')
      .select(['duration_seconds', 'video_duration_seconds'])
      .where('id', '=', lesson.id)
      .executeTakeFirstOrThrow()
    expect(row).toEqual({ duration_seconds: 120, video_duration_seconds: 120 })
    // Read by ranges, never the whole object.
    const reads = bucket.log.filter((entry) => entry.method === 'GET' && entry.target.includes(stored.key))
    expect(reads.length).toBeGreaterThan(0)
    expect(reads.every((entry) => entry.status === 206)).toBe(true)
  })
})
