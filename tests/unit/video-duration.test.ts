// A video's length read from its container (storage/video-duration.ts), and uploads staged to disk as they stream
// in (storage/staged-upload.ts): size limit and content judged while the bytes arrive, nothing left behind.
import { existsSync, readdirSync } from 'node:fs'
import { mkdtemp, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { DEMO_VIDEOS } from '../../db/seed/data/videos.ts'
import { detectVideoType } from '../../src-server/storage/media.ts'
import { discard, readFileAt, stageUpload } from '../../src-server/storage/staged-upload.ts'
import { readVideoDuration } from '../../src-server/storage/video-duration.ts'

const inMemory = (bytes: Uint8Array) => async (start: number, length: number) => bytes.subarray(start, start + length)
const durationOf = (bytes: Uint8Array) => readVideoDuration(inMemory(bytes), bytes.length)

function box(type: string, ...content: Uint8Array[]): Uint8Array {
  const size = 8 + content.reduce((sum, part) => sum + part.length, 0)
  const head = Buffer.alloc(8)
  head.writeUInt32BE(size, 0)
  head.write(type, 4, 'latin1')
  return Buffer.concat([head, ...content])
}

function mvhd(version: 0 | 1, timescale: number, duration: number): Uint8Array {
  const body = Buffer.alloc(version === 1 ? 112 : 100)
  body[0] = version
  if (version === 1) {
    body.writeUInt32BE(timescale, 20)
    body.writeBigUInt64BE(BigInt(duration), 24)
  } else {
    body.writeUInt32BE(timescale, 12)
    body.writeUInt32BE(duration, 16)
  }
  return box('mvhd', body)
}

const ftyp = box('ftyp', Buffer.from('isom\0\0\x02\0isomiso2avc1mp41', 'latin1'))

describe('readVideoDuration', () => {
  it('reads every demo WebM file as long as the curriculum says it is', async () => {
    for (const video of DEMO_VIDEOS) {
      const bytes = await readFile(path.resolve('db/seed/media', video.file))
      const seconds = await durationOf(bytes)
      expect(seconds, video.file).not.toBeNull()
      expect(Math.round(seconds ?? 0), video.file).toBe(video.durationSeconds)
    }
  })

  it('reads an MP4 whose movie header comes first or last (not "faststart"), version 0 and 1', async () => {
    const mdat = box('mdat', Buffer.alloc(5000, 7))
    expect(await durationOf(Buffer.concat([ftyp, box('moov', mvhd(0, 600, 45_300)), mdat]))).toBe(75.5)
    expect(await durationOf(Buffer.concat([ftyp, mdat, box('moov', box('udta'), mvhd(1, 1000, 3_600_250))]))).toBe(
      3600.25,
    )
    // Only a few header bytes are read, never the media data.
    const bytes = Buffer.concat([ftyp, mdat, box('moov', mvhd(0, 1000, 61_000))])
    let read = 0
    const seconds = await readVideoDuration(async (start, length) => {
      read += length
      return bytes.subarray(start, start + length)
    }, bytes.length)
    expect(seconds).toBe(61)
    expect(read).toBeLessThan(200)
  })

  it('says null when the container does not tell (no movie header, a WebM without Duration, other bytes)', async () => {
    expect(await durationOf(Buffer.concat([ftyp, box('mdat', Buffer.alloc(100))]))).toBeNull()
    expect(await durationOf(Buffer.concat([ftyp, box('moov', mvhd(0, 0, 100))]))).toBeNull()
    expect(await durationOf(Buffer.from('<?php system($_GET[1]); ?>'))).toBeNull()
    // The demo file with its Duration element replaced by a Void element of the same length: no length.
    const webm = Buffer.from(await readFile(path.resolve('db/seed/media/recap.webm')))
    const at = webm.indexOf(Buffer.from([0x44, 0x89]))
    expect(at).toBeGreaterThan(0)
    const size = webm[at + 2]! & 0x7f
    const voided = Buffer.concat([
      webm.subarray(0, at),
      Buffer.from([0xec, 0x80 | (size + 1)]),
      Buffer.alloc(size + 1),
      webm.subarray(at + 3 + size),
    ])
    expect(voided.length).toBe(webm.length)
    expect(await durationOf(voided)).toBeNull()
  })
})

async function* chunks(total: number, size: number, first: Uint8Array, pulled: { count: number }) {
  for (let sent = 0; sent < total; sent += size) {
    pulled.count++
    yield sent === 0 ? Buffer.concat([first, Buffer.alloc(size - first.length)]) : Buffer.alloc(size, 1)
  }
}

describe('stageUpload', () => {
  const webmHead = Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0, 0, 0, 0, 0, 0, 0, 0])

  it('writes the stream to a staging file with its size and SHA-256; the file reads back', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'staging-'))
    const source = await readFile(path.resolve('db/seed/media/welcome.webm'))
    const staged = await stageUpload([source.subarray(0, 1000), source.subarray(1000)], {
      dir,
      maxBytes: source.length,
      detect: detectVideoType,
    })
    if (!('file' in staged)) throw new Error(`refused: ${staged.refusal}`)
    expect(staged.type).toEqual({ mime: 'video/webm', ext: 'webm' })
    expect(staged.file.size).toBe(source.length)
    const { createHash } = await import('node:crypto')
    expect(staged.file.sha256).toBe(createHash('sha256').update(source).digest('hex'))
    expect(await readFile(staged.file.path)).toEqual(source)
    const reader = await readFileAt(staged.file.path)
    expect(Math.round((await readVideoDuration(reader.read, staged.file.size)) ?? 0)).toBe(75)
    await reader.close()
    await discard(staged.file)
    expect(readdirSync(dir)).toEqual([])
  })

  it('stops reading at the size limit and keeps nothing', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'staging-'))
    const pulled = { count: 0 }
    const staged = await stageUpload(chunks(50 * 65_536, 65_536, webmHead, pulled), {
      dir,
      maxBytes: 5 * 65_536,
      detect: detectVideoType,
    })
    expect(staged).toEqual({ refusal: 'too-large' })
    // Six chunks pulled of fifty: the sixth passed the limit, the rest were never read.
    expect(pulled.count).toBe(6)
    expect(readdirSync(dir)).toEqual([])
  })

  it('refuses other content from its first bytes, before reading the rest', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'staging-'))
    const pulled = { count: 0 }
    const staged = await stageUpload(chunks(50 * 65_536, 65_536, Buffer.from('MZ\x90\0'), pulled), {
      dir,
      maxBytes: 100 * 65_536,
      detect: detectVideoType,
    })
    expect(staged).toEqual({ refusal: 'refused' })
    expect(pulled.count).toBe(1)
    expect(readdirSync(dir)).toEqual([])
    expect(existsSync(dir)).toBe(true)
    // A short file is judged when it ends.
    expect(await stageUpload([Buffer.from('hello')], { dir, maxBytes: 100, detect: detectVideoType })).toEqual({
      refusal: 'refused',
    })
    expect(await stageUpload([], { dir, maxBytes: 100, detect: detectVideoType })).toEqual({ refusal: 'empty' })
    expect(readdirSync(dir)).toEqual([])
  })
})
