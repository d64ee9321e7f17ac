// POST /api/studio/course-image over HTTP: an approved creator stores a course image (checked by content) and saves
// it on their course; a customer who is not a creator, staff, and visitors are refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addCoInstructor } from '../../../src-server/creators/course-instructors.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { COURSE_IMAGE_REFUSED } from '../../../src-shared/schemas/admin.ts'
import { createTestDatabase } from '../../support/db.ts'
import { callerAs, createSessionToken, createUser } from '../../support/factories.ts'
import { startTestServer, type TestServer } from '../../support/http.ts'
import { developmentCategory, makeCreator } from '../../support/studio.ts'

let database: DatabaseHandle
let server: TestServer

beforeAll(async () => {
  database = await createTestDatabase()
  server = await startTestServer(database.db)
})
afterAll(async () => {
  await server.stop()
  await database.close()
})

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
)

async function upload(userId: string | null, bytes: Buffer) {
  const cookie = userId ? `session=${(await createSessionToken(database.db, userId)).token}` : null
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(bytes)]), 'cover.png')
  const response = await fetch(`${server.baseUrl}/api/studio/course-image`, {
    method: 'POST',
    body: form,
    headers: cookie ? { cookie, origin: server.baseUrl } : { origin: server.baseUrl },
  })
  return { status: response.status, body: (await response.json()) as { url?: string; message: string } }
}

describe('POST /api/studio/course-image', () => {
  it('stores a creator’s image, which their course then saves with', async () => {
    const creator = await makeCreator(database.db)
    const stored = await upload(creator.id, PNG)
    expect(stored).toMatchObject({ status: 200, body: { message: 'Image uploaded successfully!' } })
    expect(stored.body.url).toMatch(/^\/uploads\/courses\/.+\.png$/)
    const caller = await callerAs(database.db, creator)
    const { id } = await caller.studio.createCourse({
      title: 'Cover test',
      categoryId: await developmentCategory(database.db),
    })
    const course = await caller.studio.course({ courseId: id })
    const saved = await caller.studio.updateCourse({
      courseId: id,
      title: course.title,
      subtitle: '',
      categoryId: course.categoryId,
      level: 'beginner',
      language: 'English',
      description: '',
      whatYouWillLearn: [],
      requirements: [],
      imageUrl: stored.body.url!,
      priceUsd: '0',
      priceGbp: '',
      certificate: true,
    })
    expect(saved.imageUrl).toBe(stored.body.url)
  })

  it('keeps an uploaded image on the course at once, for its editors only, from our storage only', async () => {
    const creator = await makeCreator(database.db)
    const caller = await callerAs(database.db, creator)
    const { id } = await caller.studio.createCourse({
      title: 'Kept cover',
      categoryId: await developmentCategory(database.db),
    })
    const stored = await upload(creator.id, PNG)
    const kept = await caller.studio.setCourseImage({ courseId: id, imageUrl: stored.body.url! })
    expect(kept.imageUrl).toBe(stored.body.url)
    const row = await database.db.selectFrom('courses').select('image_url').where('id', '=', id).executeTakeFirst()
    expect(row?.image_url).toBe(stored.body.url)
    // Nothing else of the course changed: the details form's other fields wait for its Save.
    expect(kept.title).toBe('Kept cover')

    const refusal = async (promise: Promise<unknown>) => {
      try {
        await promise
        return 'OK'
      } catch (error) {
        return `${(error as { code?: string }).code}: ${(error as Error).message}`
      }
    }
    expect(await refusal(caller.studio.setCourseImage({ courseId: id, imageUrl: 'https://evil.example/x.png' }))).toBe(
      `BAD_REQUEST: ${COURSE_IMAGE_REFUSED}`,
    )
    const another = await callerAs(database.db, await makeCreator(database.db))
    expect(await refusal(another.studio.setCourseImage({ courseId: id, imageUrl: stored.body.url! }))).toMatch(
      /^NOT_FOUND/,
    )
    const customer = await callerAs(database.db, await createUser(database.db))
    expect(await refusal(customer.studio.setCourseImage({ courseId: id, imageUrl: stored.body.url! }))).toMatch(
      /^FORBIDDEN/,
    )
    const admin = await callerAs(database.db, await createUser(database.db, { role: 'admin' }))
    expect(await refusal(admin.studio.setCourseImage({ courseId: id, imageUrl: stored.body.url! }))).toMatch(
      /^FORBIDDEN/,
    )
    const visitor = await callerAs(database.db, null)
    expect(await refusal(visitor.studio.setCourseImage({ courseId: id, imageUrl: stored.body.url! }))).toMatch(
      /^UNAUTHORIZED/,
    )
    // None of the refusals changed it.
    expect(
      (await database.db.selectFrom('courses').select('image_url').where('id', '=', id).executeTakeFirst())?.image_url,
    ).toBe(stored.body.url)
    // A co-instructor edits the course's details, so keeps its image too.
    const coInstructor = await makeCreator(database.db)
    await addCoInstructor(database.db, id, coInstructor.id)
    const second = await upload(coInstructor.id, PNG)
    const byCo = await (await callerAs(database.db, coInstructor)).studio.setCourseImage({
      courseId: id,
      imageUrl: second.body.url!,
    })
    expect(byCo.imageUrl).toBe(second.body.url)
  })

  it('refuses a non-image, a customer who is not a creator, staff and visitors', async () => {
    const creator = await makeCreator(database.db)
    expect(await upload(creator.id, Buffer.from('<svg onload=alert(1)>'))).toMatchObject({ status: 400 })
    expect((await upload((await createUser(database.db)).id, PNG)).status).toBe(403)
    expect((await upload((await createUser(database.db, { role: 'admin' })).id, PNG)).status).toBe(403)
    expect((await upload(null, PNG)).status).toBe(401)
  })
})
