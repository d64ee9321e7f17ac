// PostgreSQL that stops answering without closing its connections (a network partition, a frozen host, a failover
// that moved the address): QA7 measured requests holding a pooled connection for good. A proxy in front of the test
// database drops every byte while frozen, as a partition does; a query then fails after the pool's query timeout,
// and its connection is dropped, so once the database answers again the next query gets a new connection instead of
// the one still waiting for an answer that will never come. PostgreSQL only.
import net from 'node:net'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { type DatabaseHandle, openDatabase } from '../../../src-server/kernel/db.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'
import '../../support/provided.ts'

const onPostgres = inject('testDb').kind === 'postgres'

/** A TCP proxy to `target` that, while frozen, forwards nothing in either direction (the bytes are lost). */
async function startFreezingProxy(target: { host: string; port: number }) {
  let frozen = false
  const sockets = new Set<net.Socket>()
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host)
    for (const socket of [client, upstream]) {
      sockets.add(socket)
      socket.on('error', () => {})
      socket.on('close', () => sockets.delete(socket))
    }
    client.on('data', (chunk) => frozen || upstream.write(chunk))
    upstream.on('data', (chunk) => frozen || client.write(chunk))
    client.on('close', () => upstream.destroy())
    upstream.on('close', () => client.destroy())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as net.AddressInfo).port,
    freeze: (value: boolean) => {
      frozen = value
    },
    close() {
      for (const socket of sockets) socket.destroy()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

describe.runIf(onPostgres)('PostgreSQL that stops answering (PostgreSQL)', () => {
  let database: TestDatabase
  let proxy: Awaited<ReturnType<typeof startFreezingProxy>>
  let behindProxy: DatabaseHandle

  beforeAll(async () => {
    database = await createTestDatabase()
    const url = new URL(database.url!)
    proxy = await startFreezingProxy({ host: url.hostname, port: Number(url.port || 5432) })
    url.hostname = '127.0.0.1'
    url.port = String(proxy.port)
    // One connection: the query after the freeze can only answer if the frozen one was given up.
    behindProxy = await openDatabase({ databaseUrl: url.href, poolSize: 1, queryTimeoutMs: 1500 })
  })
  afterAll(async () => {
    await behindProxy?.close()
    await proxy?.close()
    await database?.close()
  })

  const answer = async () => (await sql<{ one: number }>`select 1 as one`.execute(behindProxy.db)).rows[0]?.one

  it('fails a query within the timeout, drops its connection, and answers with a new one once the database is back', async () => {
    expect(await answer()).toBe(1)
    proxy.freeze(true)
    const started = Date.now()
    await expect(answer()).rejects.toThrow('Query read timeout')
    expect(Date.now() - started).toBeLessThan(10_000)
    proxy.freeze(false)
    // The frozen query's answer was lost with the partition: the connection that waited for it must not serve this.
    expect(await answer()).toBe(1)
  })
})
