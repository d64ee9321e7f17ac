// The TXT lookup behind a school's domain check (decision 0063): node:dns/promises' Resolver on the configured
// servers (DNS_SERVERS, e.g. "127.0.0.1:5353" in tests), else the system's. Injectable: the check takes any TxtLookup.
import { Resolver } from 'node:dns/promises'

/** The TXT records at a name, each as its strings (one record may be split in 255-byte strings). */
export type TxtLookup = (name: string) => Promise<string[][]>

export function createTxtLookup(servers: readonly string[] = [], timeoutMs = 3000): TxtLookup {
  return async (name) => {
    const resolver = new Resolver({ timeout: timeoutMs, tries: 2 })
    if (servers.length > 0) resolver.setServers([...servers])
    return resolver.resolveTxt(name)
  }
}

/** Parses DNS_SERVERS: addresses separated by commas or spaces ("1.1.1.1, 127.0.0.1:5353"). */
export function parseDnsServers(value: string | undefined): string[] {
  return (value ?? '')
    .split(/[\s,]+/)
    .map((part) => part.trim())
    .filter(Boolean)
}

const NO_RECORD = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN', 'ESERVFAIL', 'EREFUSED', 'ETIMEOUT', 'ECONNREFUSED'])

/** Whether one of the name's TXT records is exactly the token; a missing record or a DNS failure is false. */
export async function txtHoldsToken(lookup: TxtLookup, name: string, token: string): Promise<boolean> {
  try {
    const records = await lookup(name)
    return records.some((parts) => parts.join('').trim() === token)
  } catch (error) {
    const code = String((error as { code?: string }).code ?? '')
    if (NO_RECORD.has(code) || code.startsWith('E')) return false
    throw error
  }
}
