// A creator's course on its public page (issue 30): the subtitle leads the hero, and the description, written in
// Markdown, arrives rendered and sanitised by the server (house courses keep their plain description).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCreator, createCreatorCourse } from '../../support/creator-courses.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'
import { callerAs } from '../../support/factories.ts'

let database: TestDatabase
const db = () => database.db

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(() => database.close())

describe("a creator course's page", () => {
  it('renders the Markdown description safely and shows the subtitle', async () => {
    const creator = await createCreator(db())
    const { id } = await createCreatorCourse(db(), creator, { status: 'published' })
    await db()
      .updateTable('courses')
      .set({
        subtitle: 'From zero to a shipped app',
        description: '## What we build\n\nA **real** app.<script>alert(1)</script> [docs](javascript:alert(1))',
      })
      .where('id', '=', id)
      .execute()
    const visitor = await callerAs(db(), null)
    const page = await visitor.catalog.course({ id })
    expect(page?.subtitle).toBe('From zero to a shipped app')
    expect(page?.descriptionHtml).toContain('<h2>What we build</h2>')
    expect(page?.descriptionHtml).toContain('<strong>real</strong>')
    // Raw HTML is shown as text, and a javascript: link never becomes one.
    expect(page?.descriptionHtml).not.toMatch(/<script|href="javascript:/)
  })

  it('leaves a house course as it was: plain description, no rendered one', async () => {
    const house = await db()
      .selectFrom('courses')
      .select('id')
      .where('owner_id', 'is', null)
      .where('status', '=', 'published')
      .executeTakeFirstOrThrow()
    const page = await (await callerAs(db(), null)).catalog.course({ id: house.id })
    expect(page).toMatchObject({ subtitle: '', descriptionHtml: null })
  })
})
