// The server's batched log destination (kernel/log.ts): lines gathered and handed to sonic-boom joined, none lost,
// none reordered, whether a batch fills, a flush comes first or the stream ends.
import { mkdtemp, readFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import pino from 'pino'
import { describe, expect, it } from 'vitest'
import { gatheringLines } from '../../src-server/kernel/log.ts'

async function destination(batch: number) {
  const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'log-lines-')), 'out.log')
  const stream = gatheringLines(pino.destination({ dest: file, sync: false, minLength: batch, mkdir: true }), batch)
  await new Promise((resolve) => stream.once('ready', resolve))
  return { file, stream }
}

describe('gathered log lines', () => {
  it('writes every line in order once a batch is full, and the rest on flush', async () => {
    const { file, stream } = await destination(100)
    const lines = Array.from({ length: 25 }, (_, index) => `{"line":${index}}\n`)
    for (const line of lines.slice(0, 10)) stream.write(line)
    await new Promise((resolve) => setTimeout(resolve, 50))
    // 10 lines of ~11 characters passed the 100-character batch once: those went out, the last one waits.
    expect((await readFile(file, 'utf8')).split('\n').filter(Boolean).length).toBeGreaterThanOrEqual(9)
    for (const line of lines.slice(10)) stream.write(line)
    // A flush while a write is under way ends with that write (sonic-boom's own behaviour): flush again after it.
    for (let round = 0; round < 2; round++) {
      await new Promise<void>((resolve, reject) => stream.flush((error) => (error ? reject(error) : resolve())))
    }
    expect(await readFile(file, 'utf8')).toBe(lines.join(''))
  })

  it('hands what it holds over when the stream ends (as pino does on exit)', async () => {
    const { file, stream } = await destination(4096)
    const logger = pino({ base: null, timestamp: false }, stream)
    logger.info({ n: 1 }, 'first')
    logger.info({ n: 2 }, 'second')
    await new Promise((resolve) => {
      stream.once('close', resolve)
      stream.end()
    })
    expect(await readFile(file, 'utf8')).toBe('{"level":30,"n":1,"msg":"first"}\n{"level":30,"n":2,"msg":"second"}\n')
  })

  it('keeps what it holds through flushSync', async () => {
    const { file, stream } = await destination(4096)
    stream.write('{"a":1}\n')
    stream.flushSync()
    expect(await readFile(file, 'utf8')).toBe('{"a":1}\n')
  })
})
