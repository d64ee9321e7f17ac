// Secrets kept at rest that the server must read back (TOTP keys, an SSO client secret): AES-256-GCM under
// TWO_FACTOR_KEY when it is set ("gcm:<iv>:<sealed>"), else stored as they are ("raw:<base64>"; decision 0033, 0062).
// A secret sealed without the setting still opens after it is set, not the other way.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'

export function sealBytes(plain: Uint8Array, key: Uint8Array | undefined): string {
  if (!key) return `raw:${Buffer.from(plain).toString('base64')}`
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', key, iv)
  const sealed = Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()])
  return `gcm:${iv.toString('base64')}:${sealed.toString('base64')}`
}

/** What `openBytes` throws when the key is missing or the stored text is not a sealed secret. */
export interface SealErrors {
  noKey: string
  unreadable: string
}

/** The secret `sealBytes` stored; an empty one is unreadable (neither a TOTP key nor a client secret is ever empty). */
export function openBytes(stored: string, key: Uint8Array | undefined, errors: SealErrors): Uint8Array {
  const [kind, first, second] = stored.split(':')
  if (kind === 'raw' && first) return new Uint8Array(Buffer.from(first, 'base64'))
  if (kind === 'gcm' && first && second) {
    if (!key) throw new Error(errors.noKey)
    const sealed = Buffer.from(second, 'base64')
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(first, 'base64'))
    decipher.setAuthTag(sealed.subarray(sealed.length - 16))
    return new Uint8Array(Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - 16)), decipher.final()]))
  }
  throw new Error(errors.unreadable)
}

const TEXT_ERRORS: SealErrors = {
  noKey: 'a sealed secret needs TWO_FACTOR_KEY, which is not set',
  unreadable: 'unreadable sealed secret',
}

export function sealText(text: string, key: Uint8Array | undefined): string {
  return sealBytes(Buffer.from(text, 'utf8'), key)
}

export function openText(stored: string, key: Uint8Array | undefined): string {
  return Buffer.from(openBytes(stored, key, TEXT_ERRORS)).toString('utf8')
}
