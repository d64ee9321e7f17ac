// A tiny SMTP server on loopback for the mail tests. It counts a delivery only when it answers 250 to the
// message's final dot, as a real server accepts a message. Modes, switchable at any time:
// 'accept' delivers; 'hold' takes the whole message and never answers (a crash test kills the sender meanwhile);
// 'silent' accepts the connection and never says a word; 'reject' answers 451 to RCPT (a temporary failure).
import net from 'node:net'

export type FakeSmtpMode = 'accept' | 'hold' | 'silent' | 'reject'

export interface Delivery {
  from: string
  to: string[]
  data: string
}

export interface FakeSmtp {
  url: string
  mode: FakeSmtpMode
  readonly deliveries: Delivery[]
  /** Connections accepted so far, connections open now, messages taken and held. */
  readonly stats: { connections: number; open: number; held: number; rejected: number }
  waitFor(condition: () => boolean, timeoutMs?: number): Promise<void>
  close(): Promise<void>
}

export async function startFakeSmtp(mode: FakeSmtpMode = 'accept'): Promise<FakeSmtp> {
  const deliveries: Delivery[] = []
  const stats = { connections: 0, open: 0, held: 0, rejected: 0 }
  const sockets = new Set<net.Socket>()
  const state = { mode }

  const server = net.createServer((socket) => {
    stats.connections++
    stats.open++
    sockets.add(socket)
    socket.on('close', () => {
      stats.open--
      sockets.delete(socket)
    })
    socket.on('error', () => undefined)
    if (state.mode === 'silent') return
    const reply = (line: string) => socket.write(`${line}\r\n`)
    let envelope: Delivery = { from: '', to: [], data: '' }
    let inData = false
    let buffer = ''
    reply('220 fake-smtp ESMTP')
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8')
      while (true) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n')
          if (end < 0) return
          envelope.data = buffer.slice(0, end)
          buffer = buffer.slice(end + 5)
          inData = false
          if (state.mode === 'hold') {
            stats.held++
            return // no answer: the sender waits until it gives up or dies
          }
          deliveries.push(envelope)
          envelope = { from: '', to: [], data: '' }
          reply('250 2.0.0 queued')
          continue
        }
        const newline = buffer.indexOf('\r\n')
        if (newline < 0) return
        const line = buffer.slice(0, newline)
        buffer = buffer.slice(newline + 2)
        const verb = line.slice(0, 4).toUpperCase()
        if (verb === 'EHLO' || verb === 'HELO') reply('250 fake-smtp')
        else if (verb === 'MAIL') {
          envelope = { from: line.slice(10).trim(), to: [], data: '' }
          reply('250 2.1.0 ok')
        } else if (verb === 'RCPT') {
          if (state.mode === 'reject') {
            stats.rejected++
            reply('451 4.3.0 try again later')
          } else {
            envelope.to.push(line.slice(8).trim())
            reply('250 2.1.5 ok')
          }
        } else if (verb === 'DATA') {
          inData = true
          reply('354 end with <CRLF>.<CRLF>')
        } else if (verb === 'QUIT') {
          reply('221 bye')
          socket.end()
        } else reply('250 ok') // RSET, NOOP
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as net.AddressInfo

  return {
    url: `smtp://127.0.0.1:${port}`,
    get mode() {
      return state.mode
    },
    set mode(next) {
      state.mode = next
    },
    deliveries,
    stats,
    async waitFor(condition, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs
      while (!condition()) {
        if (Date.now() > deadline) throw new Error(`fake SMTP: condition not met in ${timeoutMs} ms`)
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    },
    async close() {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
