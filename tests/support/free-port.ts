// A TCP port nothing listens on right now (the OS picks it), for servers a test or a chaos run starts itself.
import net from 'node:net'

export async function freePort(): Promise<number> {
  const probe = net.createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as { port: number }
  await new Promise((resolve) => probe.close(resolve))
  return port
}
