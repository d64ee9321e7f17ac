// The daily sweep removes staged upload files a crash left behind, and only those older than its cut-off.
import { mkdtemp, readdir, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { sweepStaleStaging } from '../../src-server/storage/staged-upload.ts'

describe('sweepStaleStaging', () => {
  it('removes old .part files, keeps young ones and anything else', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'staging-sweep-'))
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000)
    for (const name of ['old.part', 'young.part', 'old-note.txt']) await writeFile(path.join(dir, name), 'x')
    await utimes(path.join(dir, 'old.part'), twoDaysAgo, twoDaysAgo)
    await utimes(path.join(dir, 'old-note.txt'), twoDaysAgo, twoDaysAgo)

    const cutOff = new Date(Date.now() - 24 * 60 * 60 * 1000)
    expect(await sweepStaleStaging(dir, cutOff)).toBe(1)
    expect((await readdir(dir)).sort()).toEqual(['old-note.txt', 'young.part'])
    expect(await sweepStaleStaging(dir, cutOff)).toBe(0)
  })

  it('answers 0 when the staging folder does not exist yet', async () => {
    expect(await sweepStaleStaging(path.join(tmpdir(), `no-such-staging-${Date.now()}`), new Date())).toBe(0)
  })
})
