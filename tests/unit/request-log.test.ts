// The access line (http/request-log.ts) is joined by hand for speed: it must be the very line pino writes for
// `log.info({ method, url, statusCode, ms }, 'request')` on the same request's logger, whatever the URL holds.
import { Writable } from 'node:stream'
import pino from 'pino'
import { describe, expect, it } from 'vitest'
import { writeAccessLine } from '../../src-server/http/request-log.ts'
import { redactingLogOptions } from '../../src-server/kernel/log.ts'

function capture(options: pino.LoggerOptions = {}) {
  const lines: string[] = []
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk))
      done()
    },
  })
  // A request's logger as Fastify makes it: a child of the app's logger bound to the request id.
  const root = pino({ level: 'info', ...redactingLogOptions, ...options }, stream)
  return { lines, log: root.child({ reqId: 'c2d97acb-39fa-4211-bb1c-d980a38b9412' }) }
}

/** The line with pino's clock reading replaced, so two lines written a millisecond apart compare. */
const withoutTime = (line: string | undefined) => line?.replace(/"time":\d+/, '"time":0')

const URLS = [
  '/trpc/catalog.course?batch=1&input={"0":{"id":"gen-0050000"}}',
  '/courses?q=caf\u00e9 \u{1F600}&tab="reviews"',
  '/search?q=back\\slash\u0001\u001f\u2028',
  `/long/${'x'.repeat(600)}`,
]

describe('the access line', () => {
  it('is the line pino writes for the same call, byte for byte but the time', async () => {
    for (const url of URLS) {
      for (const [method, statusCode, ms] of [
        ['GET', 200, 1],
        ['POST', 404, 1234],
      ] as const) {
        const { lines, log } = capture()
        log.info({ method, url, statusCode, ms }, 'request')
        writeAccessLine(log, method, JSON.stringify(url), statusCode, ms)
        await new Promise((resolve) => setImmediate(resolve))
        expect(lines).toHaveLength(2)
        expect(withoutTime(lines[1])).toBe(withoutTime(lines[0]))
        expect(JSON.parse(lines[1]!)).toMatchObject({ level: 30, reqId: expect.any(String), url, msg: 'request' })
      }
    }
  })

  it('writes nothing when the logger is above info, and goes to a logger that is not pino', async () => {
    const { lines, log } = capture({ level: 'warn' })
    writeAccessLine(log, 'GET', JSON.stringify(URLS[0]), 200, 3)
    await new Promise((resolve) => setImmediate(resolve))
    expect(lines).toEqual([])
    const calls: unknown[][] = []
    const other = { info: (...args: unknown[]) => calls.push(args) }
    writeAccessLine(other as never, 'GET', JSON.stringify(URLS[1]), 200, 3)
    expect(calls).toEqual([[{ method: 'GET', url: URLS[1], statusCode: 200, ms: 3 }, 'request']])
  })

  it("goes through pino when the logger is set up otherwise (a mixin, another message key), with pino's line", async () => {
    for (const options of [{ mixin: () => ({ region: 'eu' }) }, { messageKey: 'message' }]) {
      const { lines, log } = capture(options)
      writeAccessLine(log, 'GET', JSON.stringify(URLS[0]), 200, 3)
      log.info({ method: 'GET', url: URLS[0], statusCode: 200, ms: 3 }, 'request')
      await new Promise((resolve) => setImmediate(resolve))
      expect(withoutTime(lines[0])).toBe(withoutTime(lines[1]))
    }
  })
})
