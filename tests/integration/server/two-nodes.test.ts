// Two web nodes over one database (decision 0113's audit): what one node writes, the other answers at once. Each node
// is its own server; on PostgreSQL each also has its own connection pool, as two processes would. Per-node state is
// held per server or per database handle (catalogue-snapshot.ts, school-domain.ts), so two servers here keep
// separate copies, as two processes do.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SESSION_COOKIE } from '../../../src-server/auth/session.ts'
import { type DatabaseHandle, openDatabase } from '../../../src-server/kernel/db.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'
import { createSessionToken, createUser } from '../../support/factories.ts'
import { startTestServer, type TestServer, trpcPost } from '../../support/http.ts'

let database: TestDatabase
let secondPool: DatabaseHandle | null = null
let nodeA: TestServer
let nodeB: TestServer

beforeAll(async () => {
  database = await createTestDatabase()
  secondPool = database.url ? await openDatabase({ databaseUrl: database.url, poolSize: 3 }) : null
  nodeA = await startTestServer(database.db)
  nodeB = await startTestServer(secondPool?.db ?? database.db)
})

afterAll(async () => {
  await nodeA?.stop()
  await nodeB?.stop()
  await secondPool?.close()
  await database?.close()
})

async function query(node: TestServer, procedure: string, input: unknown, cookie = '') {
  const url = `${node.baseUrl}/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input))}`
  const response = await fetch(url, { headers: cookie ? { cookie } : {} })
  expect(response.status).toBe(200)
  return ((await response.json()) as { result: { data: unknown } }).result.data
}

describe('two nodes over one database', () => {
  it('a log-out through node A ends the session on node B at once', async () => {
    const user = await createUser(database.db)
    const { token } = await createSessionToken(database.db, user.id)
    const cookie = `${SESSION_COOKIE}=${token}`
    expect(await query(nodeB, 'auth.me', undefined, cookie)).toMatchObject({ id: user.id })
    const out = await trpcPost(nodeA.baseUrl, 'auth.logout', undefined, { cookie })
    expect(out.status).toBe(200)
    expect(await query(nodeB, 'auth.me', undefined, cookie)).toBeNull()
  })

  it("a course's price changed through node A is node B's next answer (its kept course page is dropped)", async () => {
    const course = await database.db
      .selectFrom('courses')
      .select(['id', 'price_minor'])
      .where('status', '=', 'published')
      .orderBy('id')
      .executeTakeFirstOrThrow()
    const before = (await query(nodeB, 'catalog.course', { id: course.id })) as { prices: unknown }
    expect(await query(nodeB, 'catalog.course', { id: course.id })).toEqual(before) // now kept by node B
    await database.db
      .updateTable('courses')
      .set({ price_minor: course.price_minor + 1000 })
      .where('id', '=', course.id)
      .execute()
    const after = (await query(nodeB, 'catalog.course', { id: course.id })) as { prices: unknown }
    expect(after.prices).not.toEqual(before.prices)
    expect(JSON.stringify(after.prices)).toContain(String(course.price_minor + 1000))
  })
})
