// A local DNS server for the TXT checks (decisions 0062, 0063): dns2 on 127.0.0.1 (a free UDP port), answering TXT
// records from a map the test fills; a name in `failing` answers SERVFAIL (the resolver's ESERVFAIL), one in `silent`
// nothing at all (the resolver's ETIMEOUT). Point the server at it with DNS_SERVERS = `127.0.0.1:${port}`, or a
// caller's config with `lookup`. The end-to-end server looks TXT records up on e2eDnsPort.
import dns2 from 'dns2'
import { createTxtLookup, type TxtLookup } from '../../src-server/creators/dns-verify.ts'

const { Packet } = dns2
const SERVFAIL = 2

export interface LocalDnsServer {
  port: number
  /** TXT values by lower-case name (one record each). */
  records: Map<string, string>
  /** Names whose look-up fails with SERVFAIL. */
  failing: Set<string>
  /** Names whose look-up gets no answer at all (a DNS server that is down or drops the packets). */
  silent: Set<string>
  /** A TXT lookup through this server. */
  lookup: TxtLookup
  close(): Promise<void>
}

/**
 * The UDP port the end-to-end server's DNS_SERVERS names (scripts/e2e-server.ts): the HTTP port + 1. Nothing listens
 * there unless a spec starts this server on it (tests/e2e/sso.spec.ts); until then a look-up fails at once.
 */
export const e2eDnsPort = (httpPort: string | number) => Number(httpPort) + 1

export async function startDnsServer(options: { port?: number } = {}): Promise<LocalDnsServer> {
  const records = new Map<string, string>()
  const failing = new Set<string>()
  const silent = new Set<string>()
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request)
      const question = request.questions[0]
      const name = question?.name.toLowerCase() ?? ''
      if (silent.has(name)) return
      if (failing.has(name)) {
        ;(response.header as { rcode: number }).rcode = SERVFAIL
        send(response)
        return
      }
      const value = question ? records.get(name) : undefined
      if (question && value !== undefined) {
        response.answers.push({
          name: question.name,
          type: Packet.TYPE.TXT,
          class: Packet.CLASS.IN,
          ttl: 1,
          data: value,
        } as unknown as (typeof response.answers)[number])
      }
      send(response)
    },
  })
  const addresses = await server.listen({ udp: { port: options.port ?? 0, address: '127.0.0.1' } })
  const port = (addresses.udp as { port: number }).port
  return {
    port,
    records,
    failing,
    silent,
    lookup: createTxtLookup([`127.0.0.1:${port}`], 1000),
    close: async () => {
      await server.close()
    },
  }
}
