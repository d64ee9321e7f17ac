// catalog.search's answers are kept, serialised, with the catalogue snapshot (decision 0071): a repeated call gets
// the same bytes; a change to the catalogue made anywhere (psql, another node) shows on the next call; the input is
// still checked on every call, so a refused input is never answered from the cache.
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { serveForThisFile } from '../../support/test-server.ts'

const site = serveForThisFile()

async function search(input: unknown) {
  const query = `batch=1&input=${encodeURIComponent(JSON.stringify({ 0: input }))}`
  const response = await fetch(`${site.baseUrl}/trpc/catalog.search?${query}`)
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    vary: response.headers.get('vary'),
    requestId: response.headers.get('x-request-id'),
    body: await response.text(),
  }
}

type Answer = [{ result: { data: { items: { id: string; title: string }[]; total: number } } }]
const data = (body: string) => (JSON.parse(body) as Answer)[0].result.data

describe('the catalogue answer cache', () => {
  it('answers a repeated call with the same bytes and headers, and a change behind its back on the next call', async () => {
    const first = await search({})
    const again = await search({})
    expect(again).toEqual({ ...first, requestId: again.requestId })
    expect(again.requestId).not.toBe(first.requestId)
    expect(again.contentType).toMatch(/^application\/json/)
    expect(again.vary).toMatch(/^trpc-accept, accept\b/)
    // Another spelling of the same query (the defaults written out) is the same answer.
    expect((await search({ page: 1 })).body).toBe(first.body)

    const card = data(first.body).items[0]!
    await sql`update courses set title = 'Retitled behind the back' where id = ${card.id}`.execute(site.db)
    const after = await search({})
    expect(data(after.body).items[0]).toMatchObject({ id: card.id, title: 'Retitled behind the back' })

    const total = data(after.body).total
    await sql`update courses set status = 'draft' where id = ${card.id}`.execute(site.db)
    const withdrawn = data((await search({})).body)
    expect(withdrawn.total).toBe(total - 1)
    expect(withdrawn.items.map((item) => item.id)).not.toContain(card.id)
    await sql`update courses set status = 'published' where id = ${card.id}`.execute(site.db)
  })

  it('still refuses a bad input after good ones were kept (schema and NUL bytes)', async () => {
    expect((await search({})).status).toBe(200)
    const negative = await search({ page: -3 })
    expect(negative.status).toBe(400)
    expect(JSON.parse(negative.body)[0].error.data.code).toBe('BAD_REQUEST')
    const nul = await search({ search: 'de\u0000sign' })
    expect(nul.status).toBe(400)
    expect((await search({ page: -3 })).status).toBe(400)
  })
})
