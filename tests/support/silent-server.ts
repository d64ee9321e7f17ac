// A dependency that has hung: a TCP server on loopback that accepts every connection and never sends a byte (a
// Redis, bucket or any service whose process is stuck, or a firewall that swallows packets after the handshake).
import net from 'node:net'

export interface SilentServer {
  port: number
  /** Connections accepted so far. */
  readonly accepted: number
  close(): Promise<void>
}

export async function startSilentServer(): Promise<SilentServer> {
  const sockets = new Set<net.Socket>()
  let accepted = 0
  const server = net.createServer((socket) => {
    accepted++
    sockets.add(socket)
    socket.on('error', () => {})
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as net.AddressInfo).port,
    get accepted() {
      return accepted
    },
    close() {
      for (const socket of sockets) socket.destroy()
      return new Promise((resolve) => server.close(() => resolve()))
    },
  }
}
