// Password sign-in and session start, shared by the shop's log-in and the admin log-in.

import type { FastifyReply } from 'fastify'
import type { Role } from '../../src-shared/roles.ts'
import * as clock from '../kernel/clock.ts'
import type { AppConfig } from '../kernel/config.ts'
import type { DB } from '../kernel/db.ts'
import { sessionSiteOf } from '../kernel/hosts.ts'
import { userEmailIs } from '../users/email.ts'
import { assertNotSuspended } from '../users/suspension.ts'
import { setSessionCookie } from './cookies.ts'
import { deviceKey, deviceText, ipNetwork } from './devices.ts'
import { dummyPasswordHash, verifyPassword } from './password.ts'
import { queueNewDeviceNotice } from './security-mails.ts'
import { createSession } from './session.ts'

export interface AuthenticatedUser {
  id: string
  email: string
  role: Role
  emailVerified: boolean
  firstName: string
  lastName: string
}

/**
 * The user whose e-mail (any case) and password match, else null. An unknown e-mail costs the same argon2
 * verification as a wrong password, so timing does not reveal which accounts exist.
 */
export async function authenticateWithPassword(
  db: DB,
  email: string,
  password: string,
): Promise<AuthenticatedUser | null> {
  const user = await db
    .selectFrom('users')
    .select(['id', 'email', 'role', 'email_verified', 'first_name', 'last_name', 'password_hash'])
    .where(userEmailIs(email))
    .executeTakeFirst()
  const valid = await verifyPassword(user?.password_hash ?? (await dummyPasswordHash()), password)
  if (!user?.password_hash || !valid) return null
  return {
    id: user.id,
    email: user.email,
    role: user.role,
    emailVerified: user.email_verified,
    firstName: user.first_name,
    lastName: user.last_name,
  }
}

/** Where a sign-in comes from: the browser's User-Agent and the client address (only its network is kept). */
export interface SignInOrigin {
  userAgent?: string
  clientIp?: string
  /** False for a session that replaces one of the same device (a password change): no new-device notice. */
  notify?: boolean
}

/**
 * Creates a session for the user and sets its cookie on the reply. A sign-in from a browser, system and network the
 * account has not used before mails a notice (not the account's very first sign-in).
 */
export async function startSession(
  db: DB,
  reply: FastifyReply | undefined,
  config: AppConfig,
  userId: string,
  remember: boolean,
  origin: SignInOrigin = {},
) {
  // Every way in ends here (password, code step, passkey, Google, a school's sign-in, the domain hand-off).
  await assertNotSuspended(db, userId)
  const network = ipNetwork(origin.clientIp)
  const now = clock.now()
  // Made on a school's domain, the session is that site's alone (auth/session.ts validateSessionToken).
  const siteHost = reply ? sessionSiteOf(reply.request.host, config.publicUrl) : null
  const created = await createSession(db, userId, remember, now, {
    userAgent: origin.userAgent,
    ipNetwork: network,
    siteHost,
  })
  if (reply) setSessionCookie(reply, created.token, created.session, { secure: config.cookieSecure })
  if (await isNewDevice(db, userId, deviceKey(origin.userAgent, network), now)) {
    if (origin.notify !== false) {
      await queueNewDeviceNotice(db, userId, {
        device: deviceText(origin.userAgent),
        network: network ?? 'unknown network',
        at: now,
        publicUrl: config.publicUrl,
      })
    }
  }
  return created
}

/** Records the device; true when it is new for an account that had signed in from another before. */
async function isNewDevice(db: DB, userId: string, key: string, now: Date): Promise<boolean> {
  const inserted = await db
    .insertInto('known_devices')
    .values({ user_id: userId, device_key: key, first_seen_at: now, last_seen_at: now })
    .onConflict((oc) => oc.columns(['user_id', 'device_key']).doNothing())
    .returning('device_key')
    .executeTakeFirst()
  if (!inserted) {
    await db
      .updateTable('known_devices')
      .set({ last_seen_at: now })
      .where('user_id', '=', userId)
      .where('device_key', '=', key)
      .execute()
    return false
  }
  const other = await db
    .selectFrom('known_devices')
    .select('device_key')
    .where('user_id', '=', userId)
    .where('device_key', '!=', key)
    .limit(1)
    .executeTakeFirst()
  return Boolean(other)
}
