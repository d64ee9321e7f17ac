// A school's API keys (decision 0060): the owner, and a finance member for orders and earnings (read), create (the
// key shown once), list and revoke them, only while the owner's plan includes the API; a key dies with its holder's
// place on the team; a request to /api/v1 is authenticated by its key's hash. Refusals name a code the REST
// API sends back ({ error: { code, message } }); the key itself is never in a message or a log.
import type { z } from 'zod'
import { apiScopesForRole } from '../../src-shared/api-scopes.ts'
import { formatDate } from '../../src-shared/dates.ts'
import type { apiKeyFieldsInput } from '../../src-shared/schemas/api-keys.ts'
import {
  findApiKeyByHash,
  hashApiKey,
  insertApiKey,
  listApiKeys,
  newApiKey,
  revokeApiKey,
  touchApiKey,
} from '../creators/api-keys.ts'
import { schoolRoleOf } from '../creators/school-access.ts'
import { schoolById } from '../creators/schools.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { userContact } from '../users/contact.ts'
import { assertPlanIncludes, ownerPlanIncludes } from './creator-standing.ts'
import { mailSchoolOwner } from './school-owner-mail.ts'
import { ownSchool } from './school-team.ts'

const DAY_MS = 24 * 60 * 60 * 1000

/**
 * The school the caller holds keys for: the one a member names (schoolId), else their own (creators). The owner
 * manages every key; a finance member only the keys they hold, with the scopes their role allows (apiScopesForRole);
 * other roles hold none.
 */
async function keySchool(db: DB, userId: string, schoolId: string | undefined) {
  const id = schoolId ?? (await ownSchool(db, userId)).id
  const [role, school] = await Promise.all([schoolRoleOf(db, userId, id), schoolById(db, id)])
  if (!role || !school) throw new DomainError('not_found', 'School not found')
  const allowed = apiScopesForRole(role)
  if (allowed.length === 0) {
    throw new DomainError('forbidden', `Your role in this school (${role}) does not allow API keys`)
  }
  return { school, role, allowed, holderId: role === 'owner' ? undefined : userId }
}

/** The studio's API page: whether the plan includes the API, and the keys the caller may see (never their secrets). */
export async function schoolApiKeys(db: DB, userId: string, schoolId?: string) {
  const { school, role, allowed, holderId } = await keySchool(db, userId, schoolId)
  if (!(await ownerPlanIncludes(db, school.ownerId, 'api'))) {
    // The page adds where to go: Compare plans for the owner, "the owner chooses" for a member.
    const message = 'The API comes with the Enterprise plan.'
    return { available: false as const, message, keys: [], role, allowedScopes: [...allowed] }
  }
  const keys = await listApiKeys(db, school.id, holderId)
  const now = clock.now()
  return {
    available: true as const,
    message: null,
    role,
    allowedScopes: [...allowed],
    keys: keys.map((key) => ({
      ...key,
      state: key.revokedAt
        ? ('revoked' as const)
        : key.expiresAt && key.expiresAt <= now
          ? ('expired' as const)
          : ('active' as const),
    })),
  }
}

export const API_KEY_CREATED_MAIL_KIND = 'school-api-key-created'

/**
 * Tells the school's owner of a new key (who made it, its name, prefix, scopes and expiry; never the key), in the
 * transaction that makes it: a key someone else made with a stolen session is then seen, and revoked, at once.
 */
function mailKeyCreated(
  db: DB,
  key: { schoolId: string; name: string; prefix: string; scopes: string[]; expiresAt: Date | null; by: string },
  publicUrl: string,
) {
  return mailSchoolOwner(db, key.schoolId, (school) => ({
    kind: API_KEY_CREATED_MAIL_KIND,
    subject: `A new API key for ${school}: “${key.name}”`,
    lines: [
      `${key.by} created an API key for ${school} on ${formatDate(clock.now(), 'mediumTime')}:`,
      '',
      `  name:    ${key.name}`,
      `  prefix:  ${key.prefix}…`,
      `  scopes:  ${key.scopes.join(', ')}`,
      `  expires: ${key.expiresAt ? formatDate(key.expiresAt, 'mediumTime') : 'never'}`,
      '',
      'It works with the school’s data through the API, as its scopes allow, until it expires or is revoked.',
      `If you did not expect it, revoke it now and change that account’s password: ${publicUrl}/studio/api`,
    ],
  }))
}

/**
 * Makes a key held by the caller (who proved it is them: routers/api-keys.ts); the only time its secret leaves the
 * server is this answer. The owner is mailed in the same transaction.
 */
export async function createSchoolApiKey(
  db: DB,
  userId: string,
  input: z.output<typeof apiKeyFieldsInput>,
  publicUrl: string,
) {
  const { school, role, allowed } = await keySchool(db, userId, input.schoolId)
  await assertPlanIncludes(db, school.ownerId, 'api')
  const beyond = input.scopes.find((scope) => !allowed.includes(scope))
  if (beyond) {
    throw new DomainError('forbidden', `Your role in this school (${role}) cannot give a key the scope ${beyond}`, {
      field: 'scopes',
    })
  }
  const { key, prefix } = newApiKey()
  const expiresAt = input.expiresInDays === null ? null : new Date(clock.nowMs() + input.expiresInDays * DAY_MS)
  const scopes = [...new Set(input.scopes)]
  const by = (await userContact(db, userId))?.email ?? 'A team member'
  const id = await db.transaction().execute(async (trx) => {
    const made = await insertApiKey(trx, {
      schoolId: school.id,
      name: input.name,
      prefix,
      hash: hashApiKey(key),
      scopes,
      expiresAt,
      createdBy: userId,
    })
    await mailKeyCreated(trx, { schoolId: school.id, name: input.name, prefix, scopes, expiresAt, by }, publicUrl)
    return made
  })
  return { id, name: input.name, prefix, key, expiresAt }
}

/** The owner revokes any of the school's keys; a member only their own. */
export async function revokeSchoolApiKey(db: DB, userId: string, keyId: string, schoolId?: string) {
  const { school, holderId } = await keySchool(db, userId, schoolId)
  if (!(await revokeApiKey(db, school.id, keyId, holderId)))
    throw new DomainError('not_found', 'Key not found or revoked already')
  return { revoked: true }
}

export interface ApiCaller {
  keyId: string
  schoolId: string
  ownerId: string
  scopes: ReadonlySet<string>
}

const refuse = (kind: 'unauthenticated' | 'forbidden', code: string, message: string): never => {
  throw new DomainError(kind, message, { cause: { code } })
}

/** The caller behind an `Authorization: Bearer <key>` header, or a 401 naming why not (403 without the plan). */
export async function authenticateApiKey(db: DB, authorization: string | undefined): Promise<ApiCaller> {
  const match = authorization?.match(/^Bearer\s+(\S+)\s*$/i)
  if (!match) return refuse('unauthenticated', 'missing_key', 'Send your API key as "Authorization: Bearer <key>"')
  const token = match[1] as string
  const stored = token.length <= 200 ? await findApiKeyByHash(db, hashApiKey(token)) : null
  if (!stored) return refuse('unauthenticated', 'unknown_key', 'This API key is not known')
  if (stored.revokedAt) return refuse('unauthenticated', 'key_revoked', 'This API key was revoked')
  const now = clock.now()
  if (stored.expiresAt && stored.expiresAt <= now) {
    return refuse('unauthenticated', 'key_expired', `This API key expired on ${stored.expiresAt.toISOString()}`)
  }
  const school = await schoolById(db, stored.schoolId)
  if (!school) return refuse('unauthenticated', 'unknown_key', 'This API key is not known')
  try {
    await assertPlanIncludes(db, school.ownerId, 'api', now)
  } catch (error) {
    if (error instanceof DomainError) return refuse('forbidden', 'plan_required', error.message)
    throw error
  }
  // The key is its holder's: cut to what their role allows now, and dead once they left the team.
  const holderRole = stored.holderId ? await schoolRoleOf(db, stored.holderId, school.id) : null
  const allowed = new Set<string>(apiScopesForRole(holderRole))
  if (allowed.size === 0) {
    // Still on the team in a role without keys is not "left": say which, so the owner knows what to change.
    return refuse(
      'unauthenticated',
      'holder_left',
      holderRole === null
        ? 'The person who holds this API key is no longer on the school’s team'
        : `The person who holds this API key is now in the school’s ${holderRole} role, which holds no API keys`,
    )
  }
  if (stored.holderSuspended) {
    return refuse('forbidden', 'holder_suspended', 'The account that holds this API key is suspended')
  }
  await touchApiKey(db, stored.id, now)
  return {
    keyId: stored.id,
    schoolId: stored.schoolId,
    ownerId: school.ownerId,
    scopes: new Set(stored.scopes.filter((scope) => allowed.has(scope))),
  }
}

/** Refuses a key without the scope (a read-only key writing, say): 403 insufficient_scope. */
export function assertScope(caller: ApiCaller, scope: string): void {
  if (!caller.scopes.has(scope)) refuse('forbidden', 'insufficient_scope', `This API key lacks the scope ${scope}`)
}
