// The TXT lookup behind a school's domain check (decision 0063): node:dns/promises' Resolver on the configured
// servers (DNS_SERVERS, e.g. "127.0.0.1:5353" in tests), else the system's. Injectable: the check takes any TxtLookup.
import { randomBytes } from 'node:crypto'
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

/** No such name or no TXT record there: the record is not published (yet). */
const NO_RECORD = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN'])

/**
 * How a TXT check ended: `verified` (a record is exactly the token), `missing` (no TXT record at the name),
 * `mismatch` (records, none the token) or `failed` (the lookup itself failed: time-out, server failure, refused —
 * its code kept for the message).
 */
export type TxtCheck =
  | { outcome: 'verified' }
  | { outcome: 'missing' }
  | { outcome: 'mismatch' }
  | { outcome: 'failed'; code: string }

/** Looks the name's TXT records up and compares them with the token; a DNS failure is an outcome, never thrown. */
export async function checkTxtToken(lookup: TxtLookup, name: string, token: string): Promise<TxtCheck> {
  try {
    const records = await lookup(name)
    if (records.length === 0) return { outcome: 'missing' }
    return records.some((parts) => parts.join('').trim() === token) ? { outcome: 'verified' } : { outcome: 'mismatch' }
  } catch (error) {
    const code = String((error as { code?: string }).code ?? '')
    if (NO_RECORD.has(code)) return { outcome: 'missing' }
    if (code.startsWith('E')) return { outcome: 'failed', code }
    throw error
  }
}

/** Whether one of the name's TXT records is exactly the token; a missing record or a DNS failure is false. */
export async function txtHoldsToken(lookup: TxtLookup, name: string, token: string): Promise<boolean> {
  return (await checkTxtToken(lookup, name, token)).outcome === 'verified'
}

/** A fresh verification token: what the owner publishes in a TXT record. */
export function newVerificationToken(): string {
  return `sf-${randomBytes(18).toString('base64url')}`
}
