// A school's single sign-on settings (decision 0062): creators/ is the only writer of school_sso. The client secret is
// sealed by the caller and never read back here except for the sign-in itself (ssoSecretOf).
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'

export interface SchoolSsoSettings {
  schoolId: string
  issuer: string
  clientId: string
  domains: string[]
  enabled: boolean
  requireForMembers: boolean
}

const COLUMNS = ['school_id', 'issuer', 'client_id', 'allowed_domains', 'enabled', 'require_for_members'] as const

export async function schoolSsoSettings(db: DB, schoolId: string): Promise<SchoolSsoSettings | null> {
  const row = await db.selectFrom('school_sso').select(COLUMNS).where('school_id', '=', schoolId).executeTakeFirst()
  return row
    ? {
        schoolId: row.school_id,
        issuer: row.issuer,
        clientId: row.client_id,
        domains: row.allowed_domains,
        enabled: row.enabled,
        requireForMembers: row.require_for_members,
      }
    : null
}

/** The sealed client secret, for the sign-in only. */
export async function sealedSsoSecretOf(db: DB, schoolId: string): Promise<string | null> {
  const row = await db
    .selectFrom('school_sso')
    .select('client_secret_sealed')
    .where('school_id', '=', schoolId)
    .executeTakeFirst()
  return row?.client_secret_sealed ?? null
}

export async function putSchoolSso(
  db: DB,
  settings: SchoolSsoSettings & { sealedSecret: string | null },
): Promise<void> {
  const values = {
    issuer: settings.issuer,
    client_id: settings.clientId,
    allowed_domains: JSON.stringify(settings.domains),
    enabled: settings.enabled,
    require_for_members: settings.requireForMembers,
    updated_at: clock.now(),
    ...(settings.sealedSecret ? { client_secret_sealed: settings.sealedSecret } : {}),
  }
  if (settings.sealedSecret) {
    await db
      .insertInto('school_sso')
      .values({ school_id: settings.schoolId, ...values, client_secret_sealed: settings.sealedSecret })
      .onConflict((oc) => oc.column('school_id').doUpdateSet(values))
      .execute()
  } else {
    await db.updateTable('school_sso').set(values).where('school_id', '=', settings.schoolId).execute()
  }
}

/** Deletes the school's settings, its sealed client secret with them; false when it had none. */
export async function deleteSchoolSso(db: DB, schoolId: string): Promise<boolean> {
  const row = await db
    .deleteFrom('school_sso')
    .where('school_id', '=', schoolId)
    .returning('school_id')
    .executeTakeFirst()
  return Boolean(row)
}

/** The schools the user is a member of (not owner) whose enabled SSO is required for members. */
export async function schoolsRequiringSsoFor(db: DB, userId: string) {
  return db
    .selectFrom('school_members as m')
    .innerJoin('school_sso as sso', 'sso.school_id', 'm.school_id')
    .innerJoin('schools as s', 's.id', 'm.school_id')
    .select(['s.id', 's.name', 's.slug', 's.owner_id as ownerId'])
    .where('m.user_id', '=', userId)
    .where('sso.enabled', '=', true)
    .where('sso.require_for_members', '=', true)
    .execute()
}
