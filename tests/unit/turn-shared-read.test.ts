// Callers of one event-loop turn share one read; a caller after the read was sent never joins it (it could predate a
// change the caller must see), and a failed read fails only the callers that shared it.
import { describe, expect, it } from 'vitest'
import { turnSharedRead } from '../../src-server/kernel/turn-shared-read.ts'

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

/** A read whose answers the test gives, one per call, in order. */
function controlledRead() {
  const calls: { key: object; answer: (value: string) => void; fail: (error: Error) => void }[] = []
  const read = (key: object) =>
    new Promise<string>((resolve, reject) => {
      calls.push({ key, answer: resolve, fail: reject })
    })
  return { read, calls }
}

describe('turnSharedRead', () => {
  it('sends one read for every caller of the same turn, after all of them asked', async () => {
    const { read, calls } = controlledRead()
    const shared = turnSharedRead(read)
    const key = {}
    const answers = Promise.all([shared(key), shared(key), shared(key)])
    expect(calls).toHaveLength(0) // not sent while the turn may still bring callers
    await nextTurn()
    expect(calls).toHaveLength(1)
    calls[0]!.answer('v1')
    expect(await answers).toEqual(['v1', 'v1', 'v1'])
  })

  it('gives a caller that comes after the read was sent a read of its own', async () => {
    const { read, calls } = controlledRead()
    const shared = turnSharedRead(read)
    const key = {}
    const early = shared(key)
    await nextTurn()
    expect(calls).toHaveLength(1) // sent, not answered yet
    const late = shared(key) // e.g. after a change committed: the first read may not see it
    await nextTurn()
    expect(calls).toHaveLength(2)
    calls[1]!.answer('after the change')
    calls[0]!.answer('before the change')
    expect(await late).toBe('after the change')
    expect(await early).toBe('before the change')
  })

  it('keeps keys apart and fails only the callers of a failed read', async () => {
    const { read, calls } = controlledRead()
    const shared = turnSharedRead(read)
    const one = {}
    const two = {}
    const first = shared(one)
    const second = shared(two)
    await nextTurn()
    expect(calls.map((call) => call.key)).toEqual([one, two])
    calls[0]!.fail(new Error('connection lost'))
    calls[1]!.answer('two')
    await expect(first).rejects.toThrow('connection lost')
    expect(await second).toBe('two')
    const retried = shared(one)
    await nextTurn()
    expect(calls).toHaveLength(3)
    calls[2]!.answer('one again')
    expect(await retried).toBe('one again')
  })
})
