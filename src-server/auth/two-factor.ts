// A user's second factor: enrolment (a new TOTP key, confirmed by its first code, then ten recovery codes shown once),
// the check of a code at log-in (one per step, never replayed; ten wrong codes lock the step for 15 minutes), and
// turning it off. TOTP keys and recovery codes leave this module only while enrolling (decision 0033).
import type { AppConfig } from '../kernel/config.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { verifyPassword } from './password.ts'
import { queueRecoveryCodeUsedNotice, queueTwoFactorChangedNotice } from './security-mails.ts'
import {
  hashRecoveryCode,
  manualEntryKey,
  matchTotpStep,
  newRecoveryCodes,
  newTotpKey,
  normaliseRecoveryCode,
  normaliseTotpCode,
  openTotpKey,
  sealTotpKey,
  totpKeyUri,
} from './totp.ts'

export const TWO_FACTOR_LOCKOUT = { maxFailures: 10, lockMs: 15 * 60_000 }

export const TWO_FACTOR_MESSAGES = {
  wrongCode: 'That code is not right. Check your authenticator app and try again.',
  locked: 'Too many wrong codes. The code step is locked for 15 minutes.',
  alreadyOn: 'Two-factor authentication is already on.',
  notStarted: 'Start the set-up again: there is no key waiting for its first code.',
  notOn: 'Two-factor authentication is not on.',
  wrongPassword: 'Current password is incorrect',
  needsPassword:
    'Set a password first (Forgot password? on the log-in page sends a link): turning two-factor off later asks for it.',
} as const

export interface TwoFactorSettings {
  /** TWO_FACTOR_KEY: 32 bytes that seal TOTP keys at rest (plain when unset). */
  encryptionKey?: Uint8Array
  publicUrl: string
}

export function twoFactorSettings(config: AppConfig): TwoFactorSettings {
  return { encryptionKey: config.twoFactorKey, publicUrl: config.publicUrl }
}

export interface TwoFactorStatus {
  enabled: boolean
  enabledAt: Date | null
  recoveryCodesLeft: number
}

export async function twoFactorStatus(db: DB, userId: string): Promise<TwoFactorStatus> {
  const totp = await db
    .selectFrom('user_totp')
    .select('confirmed_at')
    .where('user_id', '=', userId)
    .where('confirmed_at', 'is not', null)
    .executeTakeFirst()
  if (!totp) return { enabled: false, enabledAt: null, recoveryCodesLeft: 0 }
  const { left } = await db
    .selectFrom('user_recovery_codes')
    .select((eb) => eb.fn.countAll<string>().as('left'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow()
  return { enabled: true, enabledAt: totp.confirmed_at, recoveryCodesLeft: Number(left) }
}

export async function hasTwoFactor(db: DB, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('user_totp')
    .select('user_id')
    .where('user_id', '=', userId)
    .where('confirmed_at', 'is not', null)
    .executeTakeFirst()
  return Boolean(row)
}

/** A new key waiting for its first code (replacing one that waited); what the app needs to add the account. */
export async function startTotpEnrolment(
  db: DB,
  user: { id: string; email: string },
  settings: TwoFactorSettings,
): Promise<{ uri: string; manualKey: string }> {
  if (await hasTwoFactor(db, user.id)) throw new DomainError('conflict', TWO_FACTOR_MESSAGES.alreadyOn)
  // An account signed in only through Google or Facebook could never turn it off again (that needs the password).
  const account = await db.selectFrom('users').select('password_hash').where('id', '=', user.id).executeTakeFirst()
  if (!account?.password_hash) throw new DomainError('precondition', TWO_FACTOR_MESSAGES.needsPassword)
  const key = newTotpKey()
  const secret = sealTotpKey(key, settings.encryptionKey)
  const written = await db
    .insertInto('user_totp')
    .values({ user_id: user.id, secret })
    .onConflict((oc) =>
      oc
        .column('user_id')
        .doUpdateSet({ secret, last_used_step: null, failed_attempts: 0, locked_until: null })
        // Only a key still waiting for its first code is replaced, never one confirmed in the meantime.
        .where('user_totp.confirmed_at', 'is', null),
    )
    .executeTakeFirst()
  if (!Number(written.numInsertedOrUpdatedRows)) throw new DomainError('conflict', TWO_FACTOR_MESSAGES.alreadyOn)
  return { uri: totpKeyUri(user.email, key), manualKey: manualEntryKey(key) }
}

/** Turns two-factor on with the first code of the waiting key; returns the ten recovery codes (shown once). */
export async function confirmTotpEnrolment(
  db: DB,
  userId: string,
  code: string,
  settings: TwoFactorSettings,
  now = new Date(),
): Promise<string[]> {
  const codes = await db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('user_totp')
      .select(['secret', 'confirmed_at'])
      .where('user_id', '=', userId)
      .forUpdate()
      .executeTakeFirst()
    if (row?.confirmed_at) throw new DomainError('conflict', TWO_FACTOR_MESSAGES.alreadyOn)
    if (!row) throw new DomainError('precondition', TWO_FACTOR_MESSAGES.notStarted)
    const step = matchTotpStep(openTotpKey(row.secret, settings.encryptionKey), code, now, null)
    if (step === null) throw new DomainError('invalid', TWO_FACTOR_MESSAGES.wrongCode, { field: 'code' })
    await trx
      .updateTable('user_totp')
      .set({ confirmed_at: now, last_used_step: step, failed_attempts: 0, locked_until: null })
      .where('user_id', '=', userId)
      .execute()
    const fresh = await replaceRecoveryCodes(trx, userId)
    await queueTwoFactorChangedNotice(trx, userId, true, settings.publicUrl)
    return fresh
  })
  return codes
}

async function replaceRecoveryCodes(db: DB, userId: string): Promise<string[]> {
  const codes = newRecoveryCodes()
  await db.deleteFrom('user_recovery_codes').where('user_id', '=', userId).execute()
  await db
    .insertInto('user_recovery_codes')
    .values(codes.map((code) => ({ user_id: userId, code_hash: hashRecoveryCode(normaliseRecoveryCode(code) ?? '') })))
    .execute()
  return codes
}

type Outcome = { ok: true; kind: 'totp' | 'recovery' } | { ok: false; locked: boolean }

/**
 * Checks a TOTP code or a recovery code for a user with two-factor on; throws `invalid` (wrong code) or
 * `rate_limited` (locked). The row is locked for the check, so two requests cannot both use one code, and the
 * failure count commits even though the call throws.
 */
export async function verifySecondFactor(
  db: DB,
  userId: string,
  code: string,
  settings: TwoFactorSettings,
  now = new Date(),
): Promise<'totp' | 'recovery'> {
  const outcome = await db.transaction().execute(async (trx): Promise<Outcome> => {
    const row = await trx
      .selectFrom('user_totp')
      .select(['secret', 'last_used_step', 'failed_attempts', 'locked_until'])
      .where('user_id', '=', userId)
      .where('confirmed_at', 'is not', null)
      .forUpdate()
      .executeTakeFirst()
    if (!row) throw new DomainError('precondition', TWO_FACTOR_MESSAGES.notOn)
    if (row.locked_until && row.locked_until.getTime() > now.getTime()) return { ok: false, locked: true }

    let kind: 'totp' | 'recovery' | null = null
    if (normaliseTotpCode(code)) {
      const step = matchTotpStep(openTotpKey(row.secret, settings.encryptionKey), code, now, row.last_used_step)
      if (step !== null) {
        kind = 'totp'
        await trx
          .updateTable('user_totp')
          .set({ last_used_step: step, failed_attempts: 0, locked_until: null })
          .where('user_id', '=', userId)
          .execute()
      }
    } else {
      const normalised = normaliseRecoveryCode(code)
      const used = normalised
        ? await trx
            .updateTable('user_recovery_codes')
            .set({ used_at: now })
            .where('user_id', '=', userId)
            .where('code_hash', '=', hashRecoveryCode(normalised))
            .where('used_at', 'is', null)
            .returning('id')
            .executeTakeFirst()
        : undefined
      if (used) {
        kind = 'recovery'
        await trx
          .updateTable('user_totp')
          .set({ failed_attempts: 0, locked_until: null })
          .where('user_id', '=', userId)
          .execute()
      }
    }
    if (kind) return { ok: true, kind }

    const failures = row.failed_attempts + 1
    const lock = failures >= TWO_FACTOR_LOCKOUT.maxFailures
    await trx
      .updateTable('user_totp')
      .set(
        lock
          ? { failed_attempts: 0, locked_until: new Date(now.getTime() + TWO_FACTOR_LOCKOUT.lockMs) }
          : { failed_attempts: failures },
      )
      .where('user_id', '=', userId)
      .execute()
    return { ok: false, locked: lock }
  })
  if (!outcome.ok) {
    if (outcome.locked) throw new DomainError('rate_limited', TWO_FACTOR_MESSAGES.locked)
    throw new DomainError('invalid', TWO_FACTOR_MESSAGES.wrongCode, { field: 'code' })
  }
  if (outcome.kind === 'recovery') {
    const { recoveryCodesLeft } = await twoFactorStatus(db, userId)
    await queueRecoveryCodeUsedNotice(db, userId, recoveryCodesLeft, settings.publicUrl)
  }
  return outcome.kind
}

/** The current password, then a code (TOTP or recovery) under the usual replay and lock-out rules. */
async function checkPasswordAndCode(
  db: DB,
  userId: string,
  input: { password: string; code: string },
  settings: TwoFactorSettings,
  now: Date,
) {
  const user = await db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirst()
  if (!user?.password_hash || !(await verifyPassword(user.password_hash, input.password))) {
    throw new DomainError('invalid', TWO_FACTOR_MESSAGES.wrongPassword, { field: 'password' })
  }
  await verifySecondFactor(db, userId, input.code, settings, now)
}

/** Ten new recovery codes in place of the old ones (used or not), after the password and a code. */
export async function regenerateRecoveryCodes(
  db: DB,
  userId: string,
  input: { password: string; code: string },
  settings: TwoFactorSettings,
  now = new Date(),
): Promise<string[]> {
  await checkPasswordAndCode(db, userId, input, settings, now)
  return db.transaction().execute((trx) => replaceRecoveryCodes(trx, userId))
}

/** Turns two-factor off after the current password and a code (TOTP or recovery), both fresh. */
export async function disableTwoFactor(
  db: DB,
  userId: string,
  input: { password: string; code: string },
  settings: TwoFactorSettings,
  now = new Date(),
): Promise<void> {
  await checkPasswordAndCode(db, userId, input, settings, now)
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('user_recovery_codes').where('user_id', '=', userId).execute()
    await trx.deleteFrom('user_totp').where('user_id', '=', userId).execute()
    await queueTwoFactorChangedNotice(trx, userId, false, settings.publicUrl)
  })
}
