// What a session says about where it was started: browser and system read from the User-Agent (a few patterns, no
// outside service), and the client address's network only ("203.0.113.0/24", IPv6 /48), never the address.
import type { DB } from '../kernel/db.ts'
import { sha256Hex } from '../kernel/random-token.ts'

const BROWSERS: [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\/\d+/, 'Edge'],
  [/\bOPR\/\d+|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\/\d+/, 'Samsung Internet'],
  [/\bFirefox\/\d+|\bFxiOS\/\d+/, 'Firefox'],
  [/\bHeadlessChrome\/\d+/, 'Headless Chrome'],
  [/\bChrome\/\d+|\bCriOS\/\d+|\bChromium\/\d+/, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\/\d+/, 'Safari'],
]

const SYSTEMS: [RegExp, string][] = [
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
]

export interface DeviceLabel {
  browser: string
  system: string
}

export function describeUserAgent(userAgent: string | null | undefined): DeviceLabel {
  const text = userAgent ?? ''
  const browser = BROWSERS.find(([pattern]) => pattern.test(text))?.[1] ?? 'Unknown browser'
  const system = SYSTEMS.find(([pattern]) => pattern.test(text))?.[1] ?? 'unknown system'
  return { browser, system }
}

export function deviceText(userAgent: string | null | undefined): string {
  const { browser, system } = describeUserAgent(userAgent)
  return `${browser} on ${system}`
}

/** The /24 of an IPv4 address or the /48 of an IPv6 one; null for anything else (a test's "local"). */
export function ipNetwork(address: string | undefined): string | null {
  if (!address) return null
  const mapped = address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address
  const v4 = mapped.match(/^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.\d{1,3}$/)
  if (v4) return `${v4[1]}.${v4[2]}.${v4[3]}.0/24`
  if (!mapped.includes(':')) return null
  const [head = '', tail = ''] = mapped.split('::')
  const left = head ? head.split(':') : []
  const right = tail ? tail.split(':') : []
  const groups = mapped.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left
  if (groups.length !== 8 || groups.some((group) => !/^[0-9a-f]{1,4}$/i.test(group))) return null
  return `${groups
    .slice(0, 3)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(':')}::/48`
}

/** The same browser and system on the same network: the key a sign-in is recognised by (hashed, not readable). */
export function deviceKey(userAgent: string | null | undefined, network: string | null): string {
  const { browser, system } = describeUserAgent(userAgent)
  return sha256Hex(`${browser}|${system}|${network ?? ''}`)
}

/** Forgets devices last used before `before` (the retention job): a sign-in from one again counts as new. */
export async function purgeStaleDevices(db: DB, before: Date): Promise<number> {
  const result = await db.deleteFrom('known_devices').where('last_seen_at', '<', before).executeTakeFirst()
  return Number(result.numDeletedRows)
}
