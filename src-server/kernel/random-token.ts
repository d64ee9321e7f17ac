// One way to make a secret for a link, a cookie or a session: `byteLength` random bytes from the platform's
// cryptographic generator, in lower-case base32 without padding (safe in an address, a cookie and a form field).
import { encodeBase32LowerCaseNoPadding } from '@oslojs/encoding'

export function randomToken(byteLength: number): string {
  const bytes = new Uint8Array(byteLength)
  crypto.getRandomValues(bytes)
  return encodeBase32LowerCaseNoPadding(bytes)
}
