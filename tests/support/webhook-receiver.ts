// A webhook receiver on 127.0.0.1 for tests: records every POST (its headers and body) and answers with the status
// the test sets (204 until told otherwise), or keeps it waiting for no answer (`hold`).
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface WebhookReceiver {
  url: string
  received: { headers: IncomingHttpHeaders; body: string }[]
  /** The status the next POSTs get. */
  answer: number
  /** The next POSTs get no answer: the sender gives up (or is ended by close()). */
  hold: boolean
  /** How many POSTs are waiting for their answer now. */
  waiting: number
  close(): Promise<void>
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const receiver: Omit<WebhookReceiver, 'url' | 'close'> = { received: [], answer: 204, hold: false, waiting: 0 }
  const server = createServer((req, res) => {
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (chunk) => {
      body += chunk
    })
    req.on('end', () => {
      receiver.received.push({ headers: req.headers, body })
      if (!receiver.hold) {
        res.writeHead(receiver.answer).end()
        return
      }
      receiver.waiting++
      res.on('close', () => {
        receiver.waiting--
      })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections() // held POSTs too
      }),
  })
}
