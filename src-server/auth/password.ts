// Password hashing with argon2id (@node-rs/argon2 defaults: m=19456 KiB, t=2, p=1, OWASP's baseline).
import { hash, verify } from '@node-rs/argon2'

export function hashPassword(password: string): Promise<string> {
  return hash(password)
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password)
  } catch {
    return false
  }
}

// A real hash to verify against when the e-mail is unknown, so both answers take the same time.
let dummyHash: Promise<string> | undefined
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword('not-a-real-password-used-for-timing')
  return dummyHash
}
