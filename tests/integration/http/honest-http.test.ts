// Honest HTTP: pages answer with the app shell and their real status. Unknown paths and unknown or unpublished
// course, category and service ids answer 404 (the client renders its not-found page); known ones 200.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { insertCourse } from '../../../db/seed/factories.ts'
import { statusForPath } from '../../../src-server/flows/page-status.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'
import { startTestServer, type TestServer } from '../../support/http.ts'

let database: TestDatabase
let app: TestServer
let courseId: string
let draftId: string
let serviceId: string
let categorySlug: string

beforeAll(async () => {
  database = await createTestDatabase()
  app = await startTestServer(database.db, { clientShell: true })
  const { db } = database
  const published = await db
    .selectFrom('courses')
    .select(['id', 'category_id'])
    .where('status', '=', 'published')
    .executeTakeFirstOrThrow()
  courseId = published.id
  draftId = (
    await insertCourse(db, {
      id: 'draft-course-for-404',
      title: 'Draft',
      category_id: published.category_id,
      status: 'draft',
    })
  ).id
  serviceId = (await db.selectFrom('services').select('id').executeTakeFirstOrThrow()).id
  categorySlug = (await db.selectFrom('categories').select('slug').executeTakeFirstOrThrow()).slug
})
afterAll(async () => {
  await app.stop()
  await database.close()
})

async function page(path: string) {
  const response = await fetch(`${app.baseUrl}${path}`)
  return { status: response.status, html: (await response.text()).includes('app shell') }
}

describe('page statuses', () => {
  it('answers 200 with the shell for pages that exist', async () => {
    for (const path of [
      '/',
      '/courses',
      '/courses/',
      '/pricing',
      '/login?redirect=%2Fcart',
      `/courses/${courseId}`,
      `/courses/category/${categorySlug}`,
      `/service/${serviceId}`,
      '/admin',
      '/admin/outbox',
    ]) {
      expect(await page(path), path).toEqual({ status: 200, html: true })
    }
  })

  it('answers 404 with the shell for unknown paths and ids, and for unpublished courses', async () => {
    for (const path of [
      '/no/such/page',
      '/pricingx',
      '/courses/no-such-course',
      `/courses/${draftId}`,
      '/courses/category/no-such-category',
      '/service/no-such-service',
      '/admin/no-such-screen',
    ]) {
      expect(await page(path), path).toEqual({ status: 404, html: true })
    }
  })

  it('is one function a server renderer can call', async () => {
    expect(await statusForPath(database.db, `/courses/${encodeURIComponent(courseId)}`)).toBe(200)
    expect(await statusForPath(database.db, '/courses/nope')).toBe(404)
    expect(await statusForPath(database.db, '/courses/%E0%A4%A')).toBe(404) // a malformed escape names nothing
  })

  it('knows the player and certificate pages: 200 for what exists, 404 for unknown or malformed ids', async () => {
    const lesson = await database.db
      .selectFrom('lessons as l')
      .innerJoin('courses as c', 'c.id', 'l.course_id')
      .select(['l.id', 'l.course_id'])
      .where('c.status', '=', 'published')
      .executeTakeFirstOrThrow()
    expect(await statusForPath(database.db, `/learn/${lesson.course_id}`)).toBe(200)
    expect(await statusForPath(database.db, `/learn/${lesson.course_id}/${lesson.id}`)).toBe(200)
    expect(await statusForPath(database.db, '/learn/nope')).toBe(404)
    expect(await statusForPath(database.db, `/learn/${lesson.course_id}/not-a-uuid`)).toBe(404)
    expect(await statusForPath(database.db, `/learn/${lesson.course_id}/00000000-0000-4000-8000-000000000000`)).toBe(
      404,
    )
    expect(await statusForPath(database.db, '/certificates/00000000-0000-4000-8000-000000000000')).toBe(404)
    expect(await statusForPath(database.db, '/certificates/nope')).toBe(404)
  })

  it.runIf(inject('testDb').kind === 'pglite')('answers 503 with the shell while the database is down', async () => {
    const broken = await createTestDatabase()
    const server = await startTestServer(broken.db, { clientShell: true })
    try {
      expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(200)
      await broken.pglite!.close()
      const response = await fetch(`${server.baseUrl}/courses/anything`)
      expect(response.status).toBe(503)
      expect(response.headers.get('retry-after')).toBe('5')
      expect(await response.text()).toContain('app shell')
      // A page that needs no lookup still answers.
      expect((await fetch(`${server.baseUrl}/pricing`)).status).toBe(200)
    } finally {
      await server.stop()
      await broken.close().catch(() => undefined)
    }
  })
  it.runIf(inject('testDb').kind === 'pglite')(
    'answers a server-rendered page 503 with Retry-After when its render met the outage, not 500',
    async () => {
      // A renderer that asks one procedure, as a page's loader does, and renders its error page when that fails.
      const entry = `export async function render({ trpcClient }) {
        try {
          await trpcClient.catalog.featuredCourses.query()
          return new Response('<p>rendered page</p>', { status: 200 })
        } catch {
          return new Response('<p>Service temporarily unavailable</p>', { status: 500 })
        }
      }`
      const broken = await createTestDatabase()
      const server = await startTestServer(broken.db, { clientShell: true, ssrEntry: entry })
      try {
        const before = await fetch(`${server.baseUrl}/pricing`)
        expect(before.status).toBe(200)
        expect(await before.text()).toContain('rendered page')
        await broken.pglite!.close()
        const during = await fetch(`${server.baseUrl}/about`)
        expect(during.status).toBe(503)
        expect(during.headers.get('retry-after')).toBe('5')
        expect(await during.text()).toContain('Service temporarily unavailable')
      } finally {
        await server.stop()
        await broken.close().catch(() => undefined)
      }
    },
  )
})
