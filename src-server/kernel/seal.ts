// Secrets kept at rest that the server must read back (an SSO client secret): AES-256-GCM under TWO_FACTOR_KEY when it
// is set ("gcm:<iv>:<sealed>"), else stored as they are ("raw:<base64>"), as TOTP keys are (decision 0033, 0062).
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'

export function sealText(text: string, key: Uint8Array | undefined): string {
  const plain = Buffer.from(text, 'utf8')
  if (!key) return `raw:${plain.toString('base64')}`
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', key, iv)
  const sealed = Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()])
  return `gcm:${iv.toString('base64')}:${sealed.toString('base64')}`
}

export function openText(stored: string, key: Uint8Array | undefined): string {
  const [kind, first, second] = stored.split(':')
  if (kind === 'raw' && first !== undefined) return Buffer.from(first, 'base64').toString('utf8')
  if (kind === 'gcm' && first && second) {
    if (!key) throw new Error('a sealed secret needs TWO_FACTOR_KEY, which is not set')
    const sealed = Buffer.from(second, 'base64')
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(first, 'base64'))
    decipher.setAuthTag(sealed.subarray(sealed.length - 16))
    return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - 16)), decipher.final()]).toString('utf8')
  }
  throw new Error('unreadable sealed secret')
}
