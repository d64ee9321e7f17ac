// Two web nodes over one database and one upload store (a shared DATA_DIR here, the bucket in production): an upload
// is written by one request at a time whichever node each request reaches (decision 0113). Each node is its own
// server with its own tus server, as two processes would be; on PostgreSQL each has its own connection pool too.

import { mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type DatabaseHandle, openDatabase } from '../../../src-server/kernel/db.ts'
import { creatorWithPlan, tusClient } from '../../support/creator-uploads.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'
import { startTestServer, type TestServer } from '../../support/http.ts'

let database: TestDatabase
let secondPool: DatabaseHandle | null = null
let nodeA: TestServer
let nodeB: TestServer
let sharedDir: string

beforeAll(async () => {
  database = await createTestDatabase()
  // PostgreSQL: node B has its own pool on the same database; PGlite opens in one process only, so both share it.
  secondPool = database.url ? await openDatabase({ databaseUrl: database.url, poolSize: 3 }) : null
  sharedDir = await mkdtemp(path.join(os.tmpdir(), 'storefront-two-nodes-'))
  nodeA = await startTestServer(database.db, { env: { DATA_DIR: sharedDir } })
  nodeB = await startTestServer(secondPool?.db ?? database.db, { env: { DATA_DIR: sharedDir } })
})

afterAll(async () => {
  await nodeA?.stop()
  await nodeB?.stop()
  await secondPool?.close()
  await database?.close()
  await rm(sharedDir, { recursive: true, force: true })
})

/** A PATCH that sends `first` and then stalls, as a browser's request on a slow link; `rest()` sends the remainder. */
function stalledPatch(baseUrl: string, cookie: string, location: string, first: Buffer, second: Buffer) {
  const request = http.request(new URL(location, baseUrl), {
    method: 'PATCH',
    headers: {
      'Tus-Resumable': '1.0.0',
      'Upload-Offset': '0',
      'Content-Type': 'application/offset+octet-stream',
      'Content-Length': String(first.length + second.length),
      cookie,
      origin: 'http://storefront.test',
    },
  })
  const ended = new Promise<void>((resolve) => {
    request.on('error', () => resolve())
    request.on('close', () => resolve())
    request.on('response', (response) => {
      response.resume()
      response.on('end', () => resolve())
    })
  })
  request.write(first)
  return {
    ended,
    rest: () =>
      new Promise<void>((resolve) => {
        if (request.destroyed) return resolve()
        request.end(second, () => resolve())
      }),
  }
}

describe('a resumable upload on two nodes', () => {
  it('lets one request write an upload at a time across nodes: a retry on node B ends the stalled PATCH on node A first', async () => {
    const { cookie } = await creatorWithPlan(database.db, 'basic')
    const onA = tusClient(nodeA.baseUrl, cookie)
    const onB = tusClient(nodeB.baseUrl, cookie)
    const created = await onA.create(300)
    expect(created.status, await created.clone().text()).toBe(201)
    const location = created.headers.get('location') as string

    // Node A receives the first 100 bytes of a 200-byte PATCH, then the link stalls.
    const stalled = stalledPatch(nodeA.baseUrl, cookie, location, Buffer.alloc(100, 'a'), Buffer.alloc(100, 'c'))
    const file = path.join(sharedDir, 'tus', location.split('/').pop() as string)
    await expect.poll(async () => (await stat(file).catch(() => null))?.size ?? 0, { timeout: 10_000 }).toBe(100)

    // The browser gives up on it and resumes through the other node: how far did it get, then the next bytes.
    const head = await onB.head(location)
    expect(head.status).toBe(200)
    expect(head.headers.get('upload-offset')).toBe('100')
    const patched = await onB.patch(location, 100, Buffer.alloc(100, 'b'))
    expect(patched.status, await patched.clone().text()).toBe(204)
    expect(patched.headers.get('upload-offset')).toBe('200')

    // Node A's old request then gets the rest of its bytes: it must have let go of the upload already.
    await stalled.rest()
    await stalled.ended

    const stored = await readFile(file)
    expect(stored.subarray(0, 100).toString()).toBe('a'.repeat(100))
    expect(stored.subarray(100, 200).toString()).toBe('b'.repeat(100))
    const after = await onA.head(location)
    expect(after.headers.get('upload-offset')).toBe('200')
  })
})
