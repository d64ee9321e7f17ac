// TOTP (RFC 6238: SHA-1, 6 digits, 30-second steps, as every authenticator app reads them) with @oslojs/otp, the
// sealing of keys at rest, and recovery codes. Pure functions: the database side is in two-factor.ts.
import { randomBytes } from 'node:crypto'
import { sha256 } from '@oslojs/crypto/sha2'
import { constantTimeEqual } from '@oslojs/crypto/subtle'
import { encodeBase32LowerCaseNoPadding, encodeBase32UpperCaseNoPadding } from '@oslojs/encoding'
import { createTOTPKeyURI, generateHOTP } from '@oslojs/otp'
import { openBytes, sealBytes } from '../kernel/seal.ts'

export const TOTP_PERIOD_S = 30
export const TOTP_DIGITS = 6
/** Codes of the step before and after now are accepted too (clocks drift; typing takes time). */
const STEP_WINDOW = 1
export const TOTP_ISSUER = 'SkillForge'
export const RECOVERY_CODE_COUNT = 10

export function newTotpKey(): Uint8Array {
  return new Uint8Array(randomBytes(20)) // 160 bits, RFC 4226's recommendation
}

export function totpStep(now: Date): number {
  return Math.floor(now.getTime() / 1000 / TOTP_PERIOD_S)
}

/** The base32 text a person types into an authenticator app by hand, in groups of four. */
export function manualEntryKey(key: Uint8Array): string {
  return encodeBase32UpperCaseNoPadding(key).replace(/(.{4})(?=.)/g, '$1 ')
}

export function totpKeyUri(accountName: string, key: Uint8Array): string {
  return createTOTPKeyURI(TOTP_ISSUER, accountName, key, TOTP_PERIOD_S, TOTP_DIGITS)
}

/** Six digits, spaces and dashes allowed (as apps show them). */
export function normaliseTotpCode(code: string): string | null {
  const digits = code.replace(/[\s-]/g, '')
  return /^\d{6}$/.test(digits) ? digits : null
}

/**
 * The step whose code `code` is, among the steps around `now` that are later than `lastUsedStep`, else null: a code
 * already used (or one older than it) is never accepted again within its window.
 */
export function matchTotpStep(key: Uint8Array, code: string, now: Date, lastUsedStep: number | null): number | null {
  const digits = normaliseTotpCode(code)
  if (!digits) return null
  const current = totpStep(now)
  const typed = new TextEncoder().encode(digits)
  let matched: number | null = null
  for (let step = current - STEP_WINDOW; step <= current + STEP_WINDOW; step++) {
    const expected = new TextEncoder().encode(generateHOTP(key, BigInt(step), TOTP_DIGITS))
    // Every step is compared (no early exit), so timing does not tell which one matched.
    if (constantTimeEqual(expected, typed) && (lastUsedStep === null || step > lastUsedStep) && matched === null) {
      matched = step
    }
  }
  return matched
}

/** Ten characters of base32 in two groups ("k3j9x-7hq2p"): 50 bits each, shown once. */
export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  return Array.from({ length: count }, () => {
    const text = encodeBase32LowerCaseNoPadding(new Uint8Array(randomBytes(7))).slice(0, 10)
    return `${text.slice(0, 5)}-${text.slice(5)}`
  })
}

/** Lower case without spaces or dashes: how a recovery code is hashed, whatever way it was typed. */
export function normaliseRecoveryCode(code: string): string | null {
  const text = code.toLowerCase().replace(/[\s-]/g, '')
  return /^[a-z2-7]{10}$/.test(text) ? text : null
}

export function hashRecoveryCode(normalised: string): Uint8Array {
  return sha256(new TextEncoder().encode(`recovery:${normalised}`))
}

/** Keys at rest: sealed under TWO_FACTOR_KEY when it is set, else stored as they are (kernel/seal.ts; decision 0033). */
export function sealTotpKey(key: Uint8Array, encryptionKey: Uint8Array | undefined): string {
  return sealBytes(key, encryptionKey)
}

export function openTotpKey(stored: string, encryptionKey: Uint8Array | undefined): Uint8Array {
  return openBytes(stored, encryptionKey, {
    noKey: 'a TOTP key is encrypted but TWO_FACTOR_KEY is not set',
    unreadable: 'unreadable TOTP key',
  })
}
