// Passkeys (issue 28, decision 0066), driven by a software authenticator (tests/support/soft-authenticator.ts, ES256
// with node:crypto) through the real procedures: adding one from the security page, signing in with it (both
// factors: no code step even with TOTP on), the challenge single use and short-lived, the counter checked, and
// removal only with a fresh password or code and only of one's own passkeys.

import { decodeBase32IgnorePadding } from '@oslojs/encoding'
import { generateHOTP } from '@oslojs/otp'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { CHALLENGE_TTL_MS, PASSKEY_MESSAGES } from '../../../src-server/auth/passkeys.ts'
import { totpStep } from '../../../src-server/auth/totp.ts'
import { confirmTotpEnrolment, startTotpEnrolment } from '../../../src-server/auth/two-factor.ts'
import { advanceClock, now, resetClock } from '../../../src-server/kernel/clock.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'
import { callerAs, createUser, type TestUser } from '../../support/factories.ts'
import { softAuthenticator } from '../../support/soft-authenticator.ts'

// callerAs builds the context without a request: the relying party is the default public URL's.
const ORIGIN = 'http://localhost:3000'

let database: TestDatabase
const db = () => database.db
beforeAll(async () => {
  database = await createTestDatabase()
}, 180_000)
afterAll(() => database.close())
afterEach(() => resetClock())

async function withPasskey(user?: TestUser) {
  const person = user ?? (await createUser(db()))
  const caller = await callerAs(db(), person)
  const authenticator = softAuthenticator()
  const options = await caller.security.passkeyOptions({ password: person.password })
  const added = await caller.security.addPasskey({
    name: 'My laptop',
    response: authenticator.register(options, ORIGIN) as never,
  })
  return { person, caller, authenticator, added }
}

async function signIn(authenticator: ReturnType<typeof softAuthenticator>, counter: number, userHandle?: string) {
  const visitor = await callerAs(db(), null)
  const options = await visitor.auth.passkeyOptions()
  const response = authenticator.assert(options, ORIGIN, counter, userHandle)
  return { visitor, response, result: visitor.auth.passkeySignIn({ response: response as never }) }
}

describe('passkeys', () => {
  it('adding a passkey needs a fresh proof: a session alone (a stolen cookie) gets no challenge', async () => {
    const person = await createUser(db())
    const caller = await callerAs(db(), person)
    await expect(caller.security.passkeyOptions({})).rejects.toThrow(/Enter your password/)
    await expect(caller.security.passkeyOptions({ password: 'not-the-password' })).rejects.toThrow(
      /password is not right/,
    )
    const challenges = await db()
      .selectFrom('webauthn_challenges')
      .select('user_id')
      .where('user_id', '=', person.id)
      .execute()
    expect(challenges).toEqual([])
    expect((await caller.security.passkeyOptions({ password: person.password })).rp.id).toBe('localhost')
  })

  it('adds a passkey with a single-use challenge and lists it without key material', async () => {
    const person = await createUser(db())
    const caller = await callerAs(db(), person)
    const authenticator = softAuthenticator()
    const options = await caller.security.passkeyOptions({ password: person.password })
    expect(options.rp.id).toBe('localhost')
    expect(options.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' })
    // Another site's origin is refused (and that try used the challenge up).
    await expect(
      caller.security.addPasskey({
        name: 'Phished',
        response: authenticator.register(options, 'http://evil.test') as never,
      }),
    ).rejects.toThrow(PASSKEY_MESSAGES.failed)
    await expect(
      caller.security.addPasskey({ name: 'Replay', response: authenticator.register(options, ORIGIN) as never }),
    ).rejects.toThrow(PASSKEY_MESSAGES.failed)
    // Another account cannot use this account's challenge.
    const fresh = await caller.security.passkeyOptions({ password: person.password })
    const other = await callerAs(db(), await createUser(db()))
    await expect(
      other.security.addPasskey({ name: 'Stolen', response: authenticator.register(fresh, ORIGIN) as never }),
    ).rejects.toThrow(PASSKEY_MESSAGES.failed)

    const options2 = await caller.security.passkeyOptions({ password: person.password })
    await caller.security.addPasskey({ name: 'My laptop', response: authenticator.register(options2, ORIGIN) as never })
    const { passkeys } = await caller.security.overview()
    expect(passkeys).toEqual([
      { id: expect.any(String), name: 'My laptop', createdAt: expect.any(Date), lastUsedAt: null },
    ])
    expect(JSON.stringify(passkeys)).not.toContain(authenticator.credentialId)
  })

  it('signs in with both factors in one, refusing a replay, a counter that did not grow and an expired challenge', async () => {
    const person = await createUser(db())
    // Two-factor on: a passkey still signs in without the code step.
    const settings = { publicUrl: ORIGIN }
    const { manualKey } = await startTotpEnrolment(db(), person, settings)
    const code = generateHOTP(decodeBase32IgnorePadding(manualKey.replace(/ /g, '')), BigInt(totpStep(now())), 6)
    await confirmTotpEnrolment(db(), person.id, code, settings, now())
    const { authenticator, caller } = await withPasskey(person)

    const first = await signIn(authenticator, 1, person.id)
    expect(await first.result).toMatchObject({ id: person.id, deletionScheduledFor: null })
    expect((await caller.security.overview()).passkeys[0]?.lastUsedAt).toBeInstanceOf(Date)
    // The same answer again: its challenge is used up.
    await expect(first.visitor.auth.passkeySignIn({ response: first.response as never })).rejects.toThrow(
      PASSKEY_MESSAGES.failed,
    )
    // A fresh challenge but the counter did not move (a cloned authenticator).
    await expect((await signIn(authenticator, 1)).result).rejects.toThrow(PASSKEY_MESSAGES.failed)
    // The user handle must name the passkey's account.
    const otherUser = await createUser(db())
    await expect((await signIn(authenticator, 5, otherUser.id)).result).rejects.toThrow(PASSKEY_MESSAGES.failed)
    // A challenge older than its two minutes.
    const visitor = await callerAs(db(), null)
    const stale = await visitor.auth.passkeyOptions()
    await advanceClock(CHALLENGE_TTL_MS / 1000 + 1)
    await expect(
      visitor.auth.passkeySignIn({ response: authenticator.assert(stale, ORIGIN, 6) as never }),
    ).rejects.toThrow(PASSKEY_MESSAGES.failed)
    // An unknown passkey.
    await expect((await signIn(softAuthenticator(), 1)).result).rejects.toThrow(PASSKEY_MESSAGES.failed)
    // And the right one with a grown counter still works.
    expect(await (await signIn(authenticator, 7)).result).toMatchObject({ id: person.id })
    const sessions = await db().selectFrom('sessions').select('id').where('user_id', '=', person.id).execute()
    expect(sessions.length).toBeGreaterThanOrEqual(3)
  })

  it('removes a passkey only with a fresh password or code, and only one of your own', async () => {
    const { person, caller, added, authenticator } = await withPasskey()
    const stranger = await withPasskey()
    await expect(caller.security.removePasskey({ passkeyId: added.id })).rejects.toThrow()
    await expect(caller.security.removePasskey({ passkeyId: added.id, password: 'wrong' })).rejects.toThrow(
      /password is not right/,
    )
    await expect(
      caller.security.removePasskey({ passkeyId: stranger.added.id, password: person.password }),
    ).rejects.toThrow(PASSKEY_MESSAGES.notFound)
    await caller.security.removePasskey({ passkeyId: added.id, password: person.password })
    expect((await caller.security.overview()).passkeys).toEqual([])
    expect((await stranger.caller.security.overview()).passkeys).toHaveLength(1)
    await expect((await signIn(authenticator, 1)).result).rejects.toThrow(PASSKEY_MESSAGES.failed)
  })
})
