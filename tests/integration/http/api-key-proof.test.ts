// Creating a school's API key needs a fresh proof (decision 0131), as a data export does: a session alone (a stolen
// cookie) makes no key; the password, an app code or, for an account without a password, an e-mailed code does. The
// school's owner is mailed of every new key — who made it, its name, prefix and scopes, never the key. Keys are the
// school's integration, not a person's session: a password change and "Sign out everywhere else" leave them working.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CONFIRM_MAIL_KIND } from '../../../src-server/auth/confirm-action.ts'
import { API_KEY_CREATED_MAIL_KIND, authenticateApiKey } from '../../../src-server/flows/school-api-keys.ts'
import { latestMailTo } from '../../../src-server/mail/outbox.ts'
import { createCreator } from '../../support/creator-courses.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'
import { callerAs, createUser } from '../../support/factories.ts'

let database: TestDatabase
const db = () => database.db
beforeAll(async () => {
  database = await createTestDatabase()
}, 180_000)
afterAll(() => database.close())

const keysOf = async (schoolId: string) =>
  db().selectFrom('api_keys').select(['name', 'created_by']).where('school_id', '=', schoolId).execute()

describe('creating an API key', () => {
  it('needs a fresh proof, mails the owner without the key, and the key outlives a password change', async () => {
    const owner = await createCreator(db(), { plan: 'enterprise' })
    // A second session of the owner's (a stolen cookie): it lists the keys, and learns how creating one is confirmed.
    const stolen = await callerAs(db(), owner)
    const listed = await stolen.apiKeys.list()
    expect(listed.confirm).toEqual({ hasPassword: true, hasTwoFactor: false })
    const school = await db()
      .selectFrom('schools')
      .select(['id', 'name'])
      .where('owner_id', '=', owner.id)
      .executeTakeFirstOrThrow()
    const wide = { name: 'Everything', scopes: ['enrolments:write', 'orders:read'] as const, expiresInDays: null }
    await expect(stolen.apiKeys.create({ ...wide, scopes: [...wide.scopes] })).rejects.toThrow(/Enter your password/)
    await expect(
      stolen.apiKeys.create({ ...wide, scopes: [...wide.scopes], password: 'not-the-password' }),
    ).rejects.toThrow(/password is not right/)
    expect(await keysOf(school.id)).toEqual([])
    expect(await latestMailTo(db(), owner.email, API_KEY_CREATED_MAIL_KIND)).toBeUndefined()

    const made = await stolen.apiKeys.create({ ...wide, scopes: [...wide.scopes], password: owner.password })
    expect(await keysOf(school.id)).toEqual([{ name: 'Everything', created_by: owner.id }])
    const mail = await latestMailTo(db(), owner.email, API_KEY_CREATED_MAIL_KIND)
    expect(mail?.subject).toBe(`A new API key for ${school.name}: “Everything”`)
    expect(mail?.text_body).toContain(`${owner.email} created an API key for ${school.name}`)
    expect(mail?.text_body).toContain(`prefix:  ${made.prefix}…`)
    expect(mail?.text_body).toContain('scopes:  enrolments:write, orders:read')
    expect(mail?.text_body).toContain('expires: never')
    expect(mail?.text_body).toContain('/studio/api')
    expect(mail?.text_body).not.toContain(made.key.slice(made.prefix.length))

    // The owner changes the password and signs out everywhere else: the key, the school's integration, still works.
    const owners = await callerAs(db(), owner)
    await owners.auth.changePassword({ currentPassword: owner.password, newPassword: 'a-new-long-passphrase-42' })
    await owners.security.signOutOthers()
    expect((await authenticateApiKey(db(), `Bearer ${made.key}`)).keyId).toBe(made.id)
  })

  it('a finance member proves it is them too, and the owner is told who made the key', async () => {
    const owner = await createCreator(db(), { plan: 'enterprise' })
    await (await callerAs(db(), owner)).apiKeys.list() // opens the owner's school
    const school = await db()
      .selectFrom('schools')
      .select('id')
      .where('owner_id', '=', owner.id)
      .executeTakeFirstOrThrow()
    const finance = await createUser(db(), { email: `fin-${Date.now().toString(36)}@example.test` })
    await db()
      .insertInto('school_members')
      .values({ school_id: school.id, user_id: finance.id, role: 'finance' })
      .execute()
    // Signed up with Google: no password, so a code is e-mailed to confirm.
    await db().updateTable('users').set({ password_hash: null }).where('id', '=', finance.id).execute()
    const caller = await callerAs(db(), finance)
    const input = { schoolId: school.id, name: 'Ledger', scopes: ['orders:read' as const], expiresInDays: 30 }
    expect((await caller.apiKeys.list({ schoolId: school.id })).confirm).toEqual({
      hasPassword: false,
      hasTwoFactor: false,
    })
    await expect(caller.apiKeys.create(input)).rejects.toThrow(/Enter the code we e-mailed you/)
    await caller.privacy.sendConfirmationCode({ action: 'create-api-key' })
    const codeMail = await latestMailTo(db(), finance.email, CONFIRM_MAIL_KIND)
    expect(codeMail?.text_body).toContain('create an API key for a school')
    const code = /^ {2}Code: ([a-z2-7]{13})$/m.exec(codeMail?.text_body ?? '')?.[1] as string
    const made = await caller.apiKeys.create({ ...input, code })
    expect(made.name).toBe('Ledger')
    // Used once.
    await expect(caller.apiKeys.create({ ...input, code })).rejects.toThrow(/code is not right/)

    const mail = await latestMailTo(db(), owner.email, API_KEY_CREATED_MAIL_KIND)
    expect(mail?.text_body).toContain(`${finance.email} created an API key`)
    expect(mail?.text_body).not.toContain(made.key.slice(made.prefix.length))
    expect(await latestMailTo(db(), finance.email, API_KEY_CREATED_MAIL_KIND)).toBeUndefined()
  })
})
