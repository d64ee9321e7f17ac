// A server's JSON log (pino) captured line by line, for tests that assert what was logged.
import { Writable } from 'node:stream'

export function captureJsonLogs<Line = Record<string, unknown>>() {
  const lines: Line[] = []
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Line)
      done()
    },
  })
  return { lines, stream }
}
