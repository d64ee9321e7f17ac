// Passkeys (WebAuthn, issue 28, decision 0066) with SimpleWebAuthn: add one on the security page, sign in with one
// from the log-in page. Each ceremony's challenge is kept here (webauthn_challenges), lives two minutes and is
// consumed by the one DELETE that checks it, so an answer cannot be replayed; the signature counter must grow
// (a cloned authenticator is refused). The relying party is the site's own address (see relyingParty).

import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { onFirstUse } from '../kernel/on-first-use.ts'

// Loaded on the first passkey ceremony: ~5 MiB of heap every web node would otherwise carry (decision 0165).
const webauthn = onFirstUse(() => import('@simplewebauthn/server'))

export const CHALLENGE_TTL_MS = 2 * 60_000
export const MAX_PASSKEYS = 10
export const PASSKEY_MESSAGES = {
  failed: 'That passkey could not be used. Please try again.',
  expired: 'The passkey request expired. Please try again.',
  tooMany: `You can keep up to ${MAX_PASSKEYS} passkeys. Remove one first.`,
  notFound: 'That passkey no longer exists.',
} as const

/** Who the passkeys belong to: the site's host (rpID) and the origin the browser must report. */
export interface RelyingParty {
  id: string
  origin: string
}

/**
 * The relying party for a request. Over https (production) it is always the public URL; over plain http (a
 * development or test set-up, which answers on any of its addresses: README) it is the address the browser is on,
 * named by the request's Host — the browser signs the origin it was on, so a mismatch fails the check anyway.
 * WebAuthn refuses IP addresses as rpID: on plain http use `localhost`.
 */
export function relyingParty(publicUrl: string, host?: string): RelyingParty {
  const base = new URL(publicUrl)
  if (base.protocol === 'https:' || !host) return { id: base.hostname, origin: base.origin }
  const own = new URL(`${base.protocol}//${host}`)
  return { id: own.hostname, origin: own.origin }
}

async function storeChallenge(db: DB, challenge: string, purpose: 'register' | 'sign_in', userId: string | null) {
  const now = clock.now()
  // Expired challenges of anyone go with each new one (cheap: an index on expires_at).
  await db.deleteFrom('webauthn_challenges').where('expires_at', '<', now).execute()
  await db
    .insertInto('webauthn_challenges')
    .values({ challenge, purpose, user_id: userId, expires_at: new Date(now.getTime() + CHALLENGE_TTL_MS) })
    .execute()
}

/** True once for a live challenge of this purpose (and account): the DELETE is the single use. */
async function consumeChallenge(db: DB, challenge: string, purpose: 'register' | 'sign_in', userId: string | null) {
  let query = db
    .deleteFrom('webauthn_challenges')
    .where('challenge', '=', challenge)
    .where('purpose', '=', purpose)
    .where('expires_at', '>', clock.now())
  query = userId ? query.where('user_id', '=', userId) : query.where('user_id', 'is', null)
  const row = await query.returning('challenge').executeTakeFirst()
  return Boolean(row)
}

/** The account's passkeys, for the security page (no key material). */
export function listPasskeys(db: DB, userId: string) {
  return db
    .selectFrom('user_passkeys')
    .select(['id', 'name', 'created_at as createdAt', 'last_used_at as lastUsedAt'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute()
}

/** Options for navigator.credentials.create: a discoverable credential with user verification. */
export async function passkeyRegistrationOptions(db: DB, user: { id: string; email: string }, rp: RelyingParty) {
  const existing = await db
    .selectFrom('user_passkeys')
    .select(['credential_id', 'transports'])
    .where('user_id', '=', user.id)
    .execute()
  if (existing.length >= MAX_PASSKEYS) throw new DomainError('precondition', PASSKEY_MESSAGES.tooMany)
  const options = await (await webauthn()).generateRegistrationOptions({
    rpName: 'SkillForge',
    rpID: rp.id,
    userName: user.email,
    userID: new TextEncoder().encode(user.id),
    attestationType: 'none',
    excludeCredentials: existing.map((row) => ({ id: row.credential_id, transports: splitTransports(row.transports) })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    timeout: CHALLENGE_TTL_MS,
  })
  await storeChallenge(db, options.challenge, 'register', user.id)
  return options
}

/** Verifies the browser's answer against this account's live challenge and keeps the passkey. */
export async function addPasskey(
  db: DB,
  userId: string,
  name: string,
  response: RegistrationResponseJSON,
  rp: RelyingParty,
) {
  const verification = await (await webauthn())
    .verifyRegistrationResponse({
      response,
      expectedChallenge: (challenge) => consumeChallenge(db, challenge, 'register', userId),
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
    })
    .catch((error: unknown) => {
      throw new DomainError('invalid', PASSKEY_MESSAGES.failed, { cause: error })
    })
  if (!verification.verified) throw new DomainError('invalid', PASSKEY_MESSAGES.failed)
  const { credential } = verification.registrationInfo
  const inserted = await db
    .insertInto('user_passkeys')
    .values({
      user_id: userId,
      credential_id: credential.id,
      public_key: credential.publicKey,
      counter: credential.counter,
      transports: (credential.transports ?? []).join(','),
      name,
      created_at: clock.now(),
    })
    .onConflict((oc) => oc.column('credential_id').doNothing())
    .returning(['id', 'name'])
    .executeTakeFirst()
  if (!inserted) throw new DomainError('conflict', PASSKEY_MESSAGES.failed)
  return inserted
}

/** Options for navigator.credentials.get: any of the site's discoverable passkeys (no account named first). */
export async function passkeySignInOptions(db: DB, rp: RelyingParty) {
  const options = await (await webauthn()).generateAuthenticationOptions({
    rpID: rp.id,
    userVerification: 'required',
    timeout: CHALLENGE_TTL_MS,
  })
  await storeChallenge(db, options.challenge, 'sign_in', null)
  return options
}

/**
 * The account a passkey answer signs in (null when it is not one of ours or does not verify). The passkey was
 * unlocked on the device (user verification required), so it stands for both factors. The counter moves forward
 * in a conditional UPDATE, so two uses of one answer cannot both pass.
 */
export async function verifyPasskeySignIn(
  db: DB,
  response: AuthenticationResponseJSON,
  rp: RelyingParty,
): Promise<string | null> {
  const passkey = await db
    .selectFrom('user_passkeys')
    .select(['id', 'user_id', 'credential_id', 'public_key', 'counter', 'transports'])
    .where('credential_id', '=', response.id)
    .executeTakeFirst()
  if (!passkey) return null
  // The authenticator's user handle, when sent, names the same account.
  if (response.response.userHandle) {
    const handle = Buffer.from(response.response.userHandle, 'base64url').toString('utf8')
    if (handle !== passkey.user_id) return null
  }
  const counter = Number(passkey.counter)
  const verification = await (await webauthn())
    .verifyAuthenticationResponse({
      response,
      expectedChallenge: (challenge) => consumeChallenge(db, challenge, 'sign_in', null),
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: passkey.credential_id,
        publicKey: new Uint8Array(passkey.public_key),
        counter,
        transports: splitTransports(passkey.transports),
      },
      requireUserVerification: true,
    })
    .catch(() => null)
  if (!verification?.verified) return null
  const moved = await db
    .updateTable('user_passkeys')
    .set({ counter: verification.authenticationInfo.newCounter, last_used_at: clock.now() })
    .where('id', '=', passkey.id)
    .where('counter', '=', String(counter))
    .executeTakeFirst()
  return Number(moved.numUpdatedRows) === 1 ? passkey.user_id : null
}

/** Removes one of the account's own passkeys (the caller has checked a fresh password or code). */
export async function removePasskey(db: DB, userId: string, passkeyId: string) {
  const result = await db
    .deleteFrom('user_passkeys')
    .where('id', '=', passkeyId)
    .where('user_id', '=', userId)
    .executeTakeFirst()
  if (Number(result.numDeletedRows) === 0) throw new DomainError('not_found', PASSKEY_MESSAGES.notFound)
}

type Transport = NonNullable<RegistrationResponseJSON['response']['transports']>[number]
const splitTransports = (text: string) => (text ? (text.split(',') as Transport[]) : undefined)
