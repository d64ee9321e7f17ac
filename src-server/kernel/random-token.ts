// One way to make a secret for a link, a cookie or a session: `byteLength` random bytes from the platform's
// cryptographic generator, in lower-case base32 without padding (safe in an address, a cookie and a form field).
import { sha256 } from '@oslojs/crypto/sha2'
import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from '@oslojs/encoding'

export function randomToken(byteLength: number): string {
  const bytes = new Uint8Array(byteLength)
  crypto.getRandomValues(bytes)
  return encodeBase32LowerCaseNoPadding(bytes)
}

/** What is stored of such a secret (and looked up by): its SHA-256, in lower-case hex. The secret itself is not kept. */
export function sha256Hex(text: string): string {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(text)))
}
