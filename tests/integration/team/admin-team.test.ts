// Team Members: invitations by e-mail with a single-use expiring link, role changes, removal that ends the
// member's sessions, the owner's protection, Last Active from sessions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { authenticateWithPassword } from '../../../src-server/auth/login.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { latestMailTo } from '../../../src-server/mail/outbox.ts'
import { createCaller } from '../../../src-server/routers/_app.ts'
import { INVITATION_INVALID, INVITATION_MAIL_KIND, INVITATION_TTL_MS } from '../../../src-server/team/invitations.ts'
import { createContextInner } from '../../../src-server/trpc/context.ts'
import { createTestDatabase } from '../../support/db.ts'
import { callerAs, createSessionToken, createUser, type TestUser } from '../../support/factories.ts'
import { messageOf } from '../../support/outcome.ts'

let database: DatabaseHandle
let owner: TestUser
let admin: TestUser
const visitor = () => createCaller(createContextInner({ db: database.db, user: null, session: null }))

async function invitationToken(email: string) {
  const mail = await latestMailTo(database.db, email, INVITATION_MAIL_KIND)
  const match = /\/admin\/accept-invite\?token=([a-z0-9]+)/.exec(mail?.text_body ?? '')
  if (!match?.[1]) throw new Error(`no invitation link in the mail to ${email}`)
  return match[1]
}

beforeAll(async () => {
  database = await createTestDatabase()
  owner = await createUser(database.db, { role: 'super_admin', firstName: 'Olive', lastName: 'Owner' })
  admin = await createUser(database.db, { role: 'admin', email: 'boss@example.test' })
})
afterAll(async () => {
  await database.close()
})

describe('invitations', () => {
  it('e-mails a single-use link; accepting sets the password and the chosen role', async () => {
    const caller = await callerAs(database.db, admin)
    const result = await caller.admin.team.invite({ name: 'Nina New', email: 'Nina@Example.test', role: 'editor' })
    expect(result.role).toBe('editor')
    const token = await invitationToken('nina@example.test')
    const stored = await database.db
      .selectFrom('team_invitations')
      .select(['token_hash', 'expires_at'])
      .where('email', '=', 'nina@example.test')
      .executeTakeFirstOrThrow()
    expect(Buffer.from(stored.token_hash).toString()).not.toContain(token)
    expect(stored.expires_at.getTime() - Date.now()).toBeGreaterThan(INVITATION_TTL_MS - 60_000)

    expect(await visitor().admin.team.invitation({ token })).toEqual({
      email: 'nina@example.test',
      role: 'editor',
      name: 'Nina New',
    })
    await visitor().admin.team.acceptInvitation({ token, password: 'a-strong-password' })
    const user = await authenticateWithPassword(database.db, 'nina@example.test', 'a-strong-password')
    expect(user).toMatchObject({ role: 'editor', firstName: 'Nina', lastName: 'New' })

    expect(await messageOf(visitor().admin.team.acceptInvitation({ token, password: 'another-password' }))).toBe(
      INVITATION_INVALID,
    )
    expect(await messageOf(visitor().admin.team.invitation({ token }))).toBe(INVITATION_INVALID)
  })

  it('defaults to viewer, refuses short passwords and expired links, and refuses existing members', async () => {
    const caller = await callerAs(database.db, admin)
    await caller.admin.team.invite({ name: 'Vic', email: 'vic@example.test' })
    const token = await invitationToken('vic@example.test')
    expect(await visitor().admin.team.invitation({ token })).toMatchObject({ role: 'viewer' })
    expect(await messageOf(visitor().admin.team.acceptInvitation({ token, password: 'short' }))).toMatch(
      /Password must be at least 8 characters/,
    )
    await database.db
      .updateTable('team_invitations')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('email', '=', 'vic@example.test')
      .execute()
    expect(await messageOf(visitor().admin.team.acceptInvitation({ token, password: 'long-enough-1' }))).toBe(
      INVITATION_INVALID,
    )
    expect(await messageOf(caller.admin.team.invite({ name: 'Boss', email: 'boss@example.test' }))).toBe(
      'This person is already a team member',
    )
  })

  it('promotes an existing customer who accepts, ending their old sessions', async () => {
    const customer = await createUser(database.db, { role: 'customer', email: 'shopper@example.test' })
    const old = await createSessionToken(database.db, customer.id)
    await (await callerAs(database.db, admin)).admin.team.invite({ name: 'Shop Per', email: 'shopper@example.test' })
    await visitor().admin.team.acceptInvitation({
      token: await invitationToken('shopper@example.test'),
      password: 'new-password-1',
    })
    const row = await database.db
      .selectFrom('users')
      .select('role')
      .where('id', '=', customer.id)
      .executeTakeFirstOrThrow()
    expect(row.role).toBe('viewer')
    // The old session ended; the only one left is the one accepting just started.
    const sessions = await database.db.selectFrom('sessions').select('id').where('user_id', '=', customer.id).execute()
    expect(sessions.map((s) => s.id)).not.toContain(old.session.id)
    expect(sessions).toHaveLength(1)
  })
})

describe('pending invitations', () => {
  it('lists pending invitations to admins, and a revoked link stops working', async () => {
    const caller = await callerAs(database.db, admin)
    await caller.admin.team.invite({ name: 'Rita Revoked', email: 'rita@example.test', role: 'admin' })
    const token = await invitationToken('rita@example.test')
    const pending = await caller.admin.team.pendingInvitations()
    const rita = pending.find((invite) => invite.email === 'rita@example.test')
    expect(rita).toMatchObject({ name: 'Rita Revoked', role: 'admin' })
    // Accepted and expired invitations are not pending.
    expect(pending.some((invite) => invite.email === 'nina@example.test')).toBe(false)
    expect(pending.some((invite) => invite.email === 'vic@example.test')).toBe(false)

    await caller.admin.team.revokeInvitation({ id: rita!.id })
    expect((await caller.admin.team.pendingInvitations()).some((invite) => invite.id === rita!.id)).toBe(false)
    expect(await messageOf(visitor().admin.team.acceptInvitation({ token, password: 'long-enough-1' }))).toBe(
      INVITATION_INVALID,
    )
    expect(await messageOf(caller.admin.team.revokeInvitation({ id: rita!.id }))).toBe('Invitation not found')
  })
})

describe('team members', () => {
  it('lists staff only, the owner first with a flag, Last Active from the newest session', async () => {
    const seen = new Date('2026-11-20T10:00:00Z')
    await database.db
      .insertInto('sessions')
      .values({
        id: 'last-seen-test',
        user_id: admin.id,
        secret_hash: new Uint8Array(32),
        expires_at: new Date(Date.now() + 86_400_000),
        last_seen_at: seen,
      })
      .execute()
    const team = await (
      await callerAs(database.db, await createUser(database.db, { role: 'viewer' }))
    ).admin.team.list()
    expect(team[0]).toMatchObject({ id: owner.id, isOwner: true, name: 'Olive Owner' })
    expect(team.every((m) => m.role !== 'customer')).toBe(true)
    const boss = team.find((m) => m.id === admin.id)!
    expect(new Date(boss.lastActive!).getTime()).toBeGreaterThanOrEqual(seen.getTime())
  })

  it('lists every staff role, from viewer to owner, and no customer', async () => {
    const members = [
      ...(await Promise.all((['viewer', 'editor', 'admin'] as const).map((role) => createUser(database.db, { role })))),
      owner,
    ]
    const customer = await createUser(database.db, { role: 'customer' })
    const team = await (await callerAs(database.db, admin)).admin.team.list()
    expect(members.map((member) => team.find((row) => row.id === member.id)?.role)).toEqual([
      'viewer',
      'editor',
      'admin',
      'super_admin',
    ])
    expect(team.some((row) => row.id === customer.id)).toBe(false)
  })

  it('changes a role inline; the owner and one’s own account cannot be changed or removed', async () => {
    const member = await createUser(database.db, { role: 'viewer' })
    const caller = await callerAs(database.db, admin)
    expect(await caller.admin.team.changeRole({ userId: member.id, role: 'editor' })).toEqual({
      id: member.id,
      role: 'editor',
    })
    const audit = await database.db
      .selectFrom('audit_log')
      .select(['before', 'after', 'actor_email'])
      .where('action', '=', 'team.role')
      .executeTakeFirstOrThrow()
    expect(audit).toMatchObject({
      actor_email: 'boss@example.test',
      before: { role: 'viewer' },
      after: { role: 'editor' },
    })

    const ownerMessage = 'The owner account cannot be changed or removed'
    expect(await messageOf(caller.admin.team.changeRole({ userId: owner.id, role: 'viewer' }))).toBe(ownerMessage)
    expect(await messageOf(caller.admin.team.remove({ userId: owner.id }))).toBe(ownerMessage)
    const asOwner = await callerAs(database.db, owner)
    expect(await messageOf(asOwner.admin.team.remove({ userId: owner.id }))).toBe(ownerMessage)
    expect(await messageOf(caller.admin.team.changeRole({ userId: admin.id, role: 'viewer' }))).toBe(
      'You cannot change or remove your own account',
    )
    const ownerRow = await database.db
      .selectFrom('users')
      .select('role')
      .where('id', '=', owner.id)
      .executeTakeFirstOrThrow()
    expect(ownerRow.role).toBe('super_admin')
  })

  it('removing a member takes the staff role away and ends their sessions at once', async () => {
    const member = await createUser(database.db, { role: 'editor' })
    const memberCaller = await callerAs(database.db, member)
    expect((await memberCaller.admin.session.me()).role).toBe('editor')
    await (await callerAs(database.db, owner)).admin.team.remove({ userId: member.id })
    const row = await database.db
      .selectFrom('users')
      .select('role')
      .where('id', '=', member.id)
      .executeTakeFirstOrThrow()
    expect(row.role).toBe('customer')
    expect(await database.db.selectFrom('sessions').select('id').where('user_id', '=', member.id).execute()).toEqual([])
    expect((await (await callerAs(database.db, owner)).admin.team.list()).some((m) => m.id === member.id)).toBe(false)
  })
})
