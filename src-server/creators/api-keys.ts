// A school's API keys (decision 0060); creators/ is the only writer of api_keys. A key is `sfk_` and 40 random
// base32 characters, shown once at creation: only its SHA-256 is stored, and a request's key is found by its hash.
// The prefix (`sfk_` and the first 8 characters) names the key in lists.
import { createHash, randomBytes } from 'node:crypto'
import { encodeBase32LowerCaseNoPadding } from '@oslojs/encoding'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'

export const API_KEY_PREFIX = 'sfk_'

export function hashApiKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest()
}

export function newApiKey(): { key: string; prefix: string } {
  const key = `${API_KEY_PREFIX}${encodeBase32LowerCaseNoPadding(randomBytes(25))}`
  return { key, prefix: key.slice(0, API_KEY_PREFIX.length + 8) }
}

export interface ApiKeyListing {
  id: string
  name: string
  prefix: string
  scopes: string[]
  expiresAt: Date | null
  lastUsedAt: Date | null
  revokedAt: Date | null
  createdAt: Date
}

export async function insertApiKey(
  db: DB,
  values: {
    schoolId: string
    name: string
    prefix: string
    hash: Buffer
    scopes: string[]
    expiresAt: Date | null
    createdBy: string
  },
): Promise<string> {
  const row = await db
    .insertInto('api_keys')
    .values({
      school_id: values.schoolId,
      name: values.name,
      prefix: values.prefix,
      secret_hash: values.hash,
      scopes: values.scopes,
      expires_at: values.expiresAt,
      created_by: values.createdBy,
      created_at: clock.now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

/** The school's keys; `holderId`: only those that person holds (made). */
export async function listApiKeys(db: DB, schoolId: string, holderId?: string): Promise<ApiKeyListing[]> {
  let query = db
    .selectFrom('api_keys')
    .select(['id', 'name', 'prefix', 'scopes', 'expires_at', 'last_used_at', 'revoked_at', 'created_at'])
    .where('school_id', '=', schoolId)
  if (holderId) query = query.where('created_by', '=', holderId)
  const rows = await query.orderBy('created_at', 'desc').orderBy('id').limit(200).execute()
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes,
    expiresAt: row.expires_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
    createdAt: row.created_at,
  }))
}

/** Revokes the school's key (`holderId`: only if that person holds it); false when not found or revoked already. */
export async function revokeApiKey(db: DB, schoolId: string, keyId: string, holderId?: string): Promise<boolean> {
  let query = db
    .updateTable('api_keys')
    .set({ revoked_at: clock.now() })
    .where('id', '=', keyId)
    .where('school_id', '=', schoolId)
    .where('revoked_at', 'is', null)
  if (holderId) query = query.where('created_by', '=', holderId)
  const result = await query.executeTakeFirst()
  return Number(result.numUpdatedRows) > 0
}

/** Revokes every live key the person holds in the school (they left its team); the number revoked. */
export async function revokeKeysHeldBy(db: DB, schoolId: string, holderId: string): Promise<number> {
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_at: clock.now() })
    .where('school_id', '=', schoolId)
    .where('created_by', '=', holderId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst()
  return Number(result.numUpdatedRows)
}

export interface StoredApiKey {
  id: string
  schoolId: string
  /** Who made and holds the key (null: their account is gone, and the key with it). */
  holderId: string | null
  /** The holder's account is suspended (decision 0160): read with the key, no second query per API request. */
  holderSuspended: boolean
  scopes: string[]
  expiresAt: Date | null
  revokedAt: Date | null
  lastUsedAt: Date | null
}

/** The key whose hash this is, whatever its state (the caller tells revoked and expired apart). */
export async function findApiKeyByHash(db: DB, hash: Buffer): Promise<StoredApiKey | null> {
  const row = await db
    .selectFrom('api_keys')
    .leftJoin('users as holder', 'holder.id', 'api_keys.created_by')
    .select([
      'api_keys.id',
      'api_keys.school_id',
      'api_keys.created_by',
      'api_keys.scopes',
      'api_keys.expires_at',
      'api_keys.revoked_at',
      'api_keys.last_used_at',
      'holder.suspended_at',
    ])
    .where('api_keys.secret_hash', '=', hash)
    .executeTakeFirst()
  return row
    ? {
        id: row.id,
        schoolId: row.school_id,
        holderId: row.created_by,
        holderSuspended: row.suspended_at !== null,
        scopes: row.scopes,
        expiresAt: row.expires_at,
        revokedAt: row.revoked_at,
        lastUsedAt: row.last_used_at,
      }
    : null
}

/** Records a use; at most one write a minute per key (a busy key does not write on every request). */
export async function touchApiKey(db: DB, keyId: string, now = clock.now()): Promise<void> {
  await db
    .updateTable('api_keys')
    .set({ last_used_at: now })
    .where('id', '=', keyId)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', new Date(now.getTime() - 60_000))]))
    .execute()
}
