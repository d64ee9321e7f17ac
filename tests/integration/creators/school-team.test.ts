// A creator's school and team against a real database (decision 0057): the school made on first use, the owner's
// invitations by e-mail with a role (the token hashed, single use), the plan's team size (none without a plan or on
// Basic, 3 people on Pro, unlimited on Enterprise), and every role × action through the real procedures: a finance
// member sees earnings but cannot edit a course; an instructor edits but cannot see earnings; support answers
// questions only; only the owner manages the team. Since decision 0144: a member leaves of their own accord (with a
// removal's effects); the member is mailed on removal and on a role change, the owner when someone joins or leaves;
// an invitation can be sent again (a new link, the old one dead), an expired one is listed as such; a plan that no
// longer covers the team says so, keeps the people on it, and marks the invitations nobody can accept now.
import { TRPCError } from '@trpc/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { assertSchoolAction, roleAllows, SCHOOL_PERMISSIONS } from '../../../src-server/creators/school-access.ts'
import { SCHOOL_INVITE_MAIL, SCHOOL_TEAM_MAILS } from '../../../src-server/flows/school-team.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { latestMailTo } from '../../../src-server/mail/outbox.ts'
import { createCreator, createCreatorCourse, lapsePlan } from '../../support/creator-courses.ts'
import { createTestDatabase } from '../../support/db.ts'
import { sell } from '../../support/earnings.ts'
import { callerAs, createUser, type TestUser } from '../../support/factories.ts'

let database: DatabaseHandle
const db = () => database.db

async function failure(promise: Promise<unknown>) {
  try {
    await promise
  } catch (error) {
    if (error instanceof TRPCError) return `${error.code}: ${error.message}`
    throw error
  }
  return 'OK'
}

async function mailedToken(email: string) {
  const mail = await latestMailTo(db(), email, SCHOOL_INVITE_MAIL)
  const token = mail?.text_body.match(/school-invite\?token=([a-z0-9]+)/)?.[1]
  if (!token) throw new Error('no invitation mailed')
  return token
}

/** Invites the person with the role and accepts as them; returns their caller. */
async function join(owner: TestUser, person: TestUser, role: 'instructor' | 'finance' | 'support') {
  await (await callerAs(db(), owner)).schools.invite({ email: person.email, role })
  const caller = await callerAs(db(), person)
  await caller.schools.acceptInvitation({ token: await mailedToken(person.email) })
  return caller
}

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(async () => {
  await database?.close()
})

describe('the school', () => {
  it('is made on first use with a unique slug; the owner renames it; the public page lists its published courses', async () => {
    const owner = await createCreator(db(), { plan: 'pro' })
    const asOwner = await callerAs(db(), owner)
    const panel = await asOwner.schools.mine()
    expect(panel.school.slug).toMatch(/^[a-z0-9-]+$/)
    expect(panel.teamLimit).toBe(3)
    const published = await createCreatorCourse(db(), owner, { status: 'published', title: 'Published here' })
    await createCreatorCourse(db(), owner, { status: 'draft', title: 'Still a draft' })
    await asOwner.schools.saveSettings({ name: 'Cora’s Academy', slug: 'coras-academy' })
    const page = await (await callerAs(db(), null)).schools.page({ slug: 'coras-academy' })
    expect(page?.name).toBe('Cora’s Academy')
    expect(page?.courses.map((c) => c.id)).toEqual([published.id])
    expect(page?.instructors).toHaveLength(1)
    expect(await (await callerAs(db(), null)).schools.page({ slug: 'no-such-school' })).toBeNull()

    const other = await callerAs(db(), await createCreator(db()))
    expect(await failure(other.schools.saveSettings({ name: 'Copy', slug: 'coras-academy' }))).toBe(
      'CONFLICT: Another school uses this address',
    )
  })
})

describe('inviting and accepting', () => {
  it('stores only the token’s hash; only the invitee accepts, once; the owner changes the role and removes', async () => {
    const owner = await createCreator(db(), { plan: 'pro' })
    const asOwner = await callerAs(db(), owner)
    const course = await createCreatorCourse(db(), owner)
    const schoolName = (await asOwner.schools.mine()).school.name
    const invitee = await createUser(db(), { email: 'fin.person@example.test' })
    await asOwner.schools.invite({ email: 'Fin.Person@Example.test', role: 'finance' })
    const token = await mailedToken('fin.person@example.test')
    const stored = await db().selectFrom('school_invites').selectAll().execute()
    expect(JSON.stringify(stored)).not.toContain(token)
    expect(Buffer.from(stored[0]?.token_hash ?? []).toString('utf8')).not.toContain(token)

    const stranger = await callerAs(db(), await createUser(db()))
    expect(await failure(stranger.schools.acceptInvitation({ token }))).toBe(
      'FORBIDDEN: This invitation was sent to fin.person@example.test: sign in with that address',
    )
    const asInvitee = await callerAs(db(), invitee)
    expect(await asInvitee.schools.invitation({ token })).toMatchObject({ role: 'finance', forThisAccount: true })
    expect(await asInvitee.schools.acceptInvitation({ token })).toMatchObject({ role: 'finance', signInWith: null })
    // The owner hears of it.
    expect((await latestMailTo(db(), owner.email, SCHOOL_TEAM_MAILS.joined))?.subject).toBe(
      `fin.person@example.test joined the team of “${schoolName}”`,
    )
    // Reuse is refused, by the invitee and by anyone else.
    const invalid = 'NOT_FOUND: This invitation link is invalid or has expired. Ask the school’s owner for a new one.'
    expect(await failure(asInvitee.schools.acceptInvitation({ token }))).toBe(invalid)
    expect(await failure(asInvitee.schools.invitation({ token }))).toBe(invalid)
    expect(await asInvitee.schools.memberships()).toEqual([expect.objectContaining({ role: 'finance' })])

    await asOwner.schools.setRole({ userId: invitee.id, role: 'support' })
    expect((await asOwner.schools.mine()).members).toEqual([
      expect.objectContaining({ email: 'fin.person@example.test', role: 'support' }),
    ])
    // The member is told of the new role, and of the removal.
    expect((await latestMailTo(db(), invitee.email, SCHOOL_TEAM_MAILS.roleChanged))?.subject).toBe(
      `Your role in “${schoolName}” is now support`,
    )
    await asOwner.schools.remove({ userId: invitee.id })
    expect(await asInvitee.schools.memberships()).toEqual([])
    expect((await latestMailTo(db(), invitee.email, SCHOOL_TEAM_MAILS.removed))?.subject).toBe(
      `You are no longer on the team of “${schoolName}”`,
    )
    // Their next studio call says why it is refused (not "only approved creators").
    expect(await failure(asInvitee.studio.addSection({ courseId: course.id, title: 'Too late' }))).toBe(
      `FORBIDDEN: You are no longer on the team of ${schoolName}, so you cannot work on its courses`,
    )
    expect(await failure(asOwner.schools.remove({ userId: invitee.id }))).toBe('NOT_FOUND: Team member not found')
  })
})

describe('leaving a school', () => {
  it('a member leaves with a removal’s effects (their API keys revoked); the owner is mailed; others cannot', async () => {
    const owner = await createCreator(db(), { plan: 'enterprise' })
    const schoolId = (await (await callerAs(db(), owner)).schools.mine()).school.id
    const person = await createUser(db(), { email: 'leaving.member@example.test' })
    const asMember = await join(owner, person, 'finance')
    await asMember.apiKeys.create({
      schoolId,
      name: 'Accounting sync',
      scopes: ['orders:read'],
      expiresInDays: 30,
      password: person.password,
    })
    // Not their place to end: another school's member, the owner of this one.
    const stranger = await callerAs(db(), await createUser(db()))
    const notOnTeam = 'NOT_FOUND: You are not on this school’s team'
    expect(await failure(stranger.schools.leave({ schoolId }))).toBe(notOnTeam)
    expect(await failure((await callerAs(db(), owner)).schools.leave({ schoolId }))).toBe(notOnTeam)

    expect(await asMember.schools.leave({ schoolId })).toEqual({ left: true })
    expect(await asMember.schools.memberships()).toEqual([])
    const keys = await db().selectFrom('api_keys').select('revoked_at').where('created_by', '=', person.id).execute()
    expect(keys).toHaveLength(1)
    expect(keys.every((key) => key.revoked_at !== null)).toBe(true)
    const mail = await latestMailTo(db(), owner.email, SCHOOL_TEAM_MAILS.left)
    expect(mail?.text_body).toContain('(leaving.member@example.test) left the team of')
    expect(await failure(asMember.schools.leave({ schoolId }))).toBe(notOnTeam)
  })
})

describe('invitations sent again, expired, or beyond the plan', () => {
  const invalid = 'NOT_FOUND: This invitation link is invalid or has expired. Ask the school’s owner for a new one.'

  it('an expired invitation is listed as such, to send again (a new link; the one before stops working) or remove', async () => {
    const owner = await createCreator(db(), { plan: 'pro' })
    const asOwner = await callerAs(db(), owner)
    const late = await createUser(db(), { email: 'late.joiner@example.test' })
    await asOwner.schools.invite({ email: late.email, role: 'support' })
    const first = await mailedToken(late.email)
    await db()
      .updateTable('school_invites')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('email', '=', late.email)
      .execute()
    const [expired] = (await asOwner.schools.mine()).invites
    expect(expired).toMatchObject({ email: late.email, state: 'expired' })

    await asOwner.schools.resendInvite({ inviteId: expired?.id ?? '' })
    const second = await mailedToken(late.email)
    expect(second).not.toBe(first)
    const [open] = (await asOwner.schools.mine()).invites
    expect((await asOwner.schools.mine()).invites).toEqual([expect.objectContaining({ state: 'open' })])
    // Sent again while open: a new link again, and the one before is dead.
    await asOwner.schools.resendInvite({ inviteId: open?.id ?? '' })
    const third = await mailedToken(late.email)
    const asLate = await callerAs(db(), late)
    expect(await failure(asLate.schools.acceptInvitation({ token: second }))).toBe(invalid)
    expect(await asLate.schools.acceptInvitation({ token: third })).toMatchObject({ role: 'support' })

    // Another expires and is removed.
    await asOwner.schools.invite({ email: 'never.came@example.test', role: 'support' })
    await db()
      .updateTable('school_invites')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('email', '=', 'never.came@example.test')
      .execute()
    const gone = (await asOwner.schools.mine()).invites.find((invite) => invite.email === 'never.came@example.test')
    expect(gone?.state).toBe('expired')
    await asOwner.schools.cancelInvite({ inviteId: gone?.id ?? '' })
    expect((await asOwner.schools.mine()).invites).toEqual([])
    // Another school's invitation is not this owner's to send again.
    const other = await callerAs(db(), await createCreator(db(), { plan: 'pro' }))
    await other.schools.invite({ email: 'theirs@example.test', role: 'support' })
    const theirs = (await other.schools.mine()).invites[0]?.id ?? ''
    expect(await failure(asOwner.schools.resendInvite({ inviteId: theirs }))).toBe('NOT_FOUND: Invitation not found')
  })

  it('a plan that no longer covers the team: its people stay, the page says so, and open invitations are marked as unacceptable', async () => {
    const owner = await createCreator(db(), { plan: 'pro' })
    const asOwner = await callerAs(db(), owner)
    const kept = [await createUser(db()), await createUser(db())]
    for (const person of kept) await join(owner, person, 'support')
    await asOwner.schools.invite({ email: 'waiting@example.test', role: 'support' })
    const token = await mailedToken('waiting@example.test')
    expect((await asOwner.schools.mine()).teamNotice).toBeNull()

    await lapsePlan(db(), owner.id)
    const panel = await asOwner.schools.mine()
    expect(panel.teamLimit).toBe(0)
    expect(panel.teamNotice).toBe(
      'Your plan no longer includes team members: the 2 people on your team keep their places and roles until you remove them, but nobody new can join and open invitations cannot be accepted. Choose Pro or Enterprise under Pricing to invite people again.',
    )
    expect(panel.members).toHaveLength(2)
    expect(panel.invites).toEqual([expect.objectContaining({ email: 'waiting@example.test', state: 'no-room' })])
    const waiting = await callerAs(db(), await createUser(db(), { email: 'waiting@example.test' }))
    expect(await failure(waiting.schools.acceptInvitation({ token }))).toBe(
      'PRECONDITION_FAILED: The school’s plan has no room for another team member now',
    )
    // Expired, it cannot be sent again while the plan has no team: refused, and it stays listed as it was.
    await db()
      .updateTable('school_invites')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('email', '=', 'waiting@example.test')
      .execute()
    expect(await failure(asOwner.schools.resendInvite({ inviteId: panel.invites[0]?.id ?? '' }))).toMatch(
      /^PRECONDITION_FAILED: /,
    )
    expect((await asOwner.schools.mine()).invites).toEqual([
      expect.objectContaining({ id: panel.invites[0]?.id, email: 'waiting@example.test', state: 'expired' }),
    ])
    await asOwner.schools.cancelInvite({ inviteId: panel.invites[0]?.id ?? '' })
    expect((await asOwner.schools.mine()).invites).toEqual([])
  })
})

describe('the plan’s team size', () => {
  it('no plan and Basic: a clear refusal; nothing stored', async () => {
    const none = await callerAs(db(), await createCreator(db(), { plan: null }))
    expect(await failure(none.schools.invite({ email: 'a@example.test', role: 'support' }))).toBe(
      'PRECONDITION_FAILED: You hold no plan with team members: choose Pro (up to 3 people) or Enterprise (unlimited) under Pricing',
    )
    const basic = await callerAs(db(), await createCreator(db(), { plan: 'basic' }))
    expect(await failure(basic.schools.invite({ email: 'b@example.test', role: 'support' }))).toBe(
      'PRECONDITION_FAILED: Your Basic plan has no team members: upgrade to Pro to invite up to 3 people',
    )
    expect(
      await db()
        .selectFrom('school_invites')
        .select('id')
        .where('email', 'in', ['a@example.test', 'b@example.test'])
        .execute(),
    ).toEqual([])
  })

  it('Pro: 3 people, co-instructors included; Enterprise: no limit', async () => {
    const owner = await createCreator(db(), { plan: 'pro' })
    const asOwner = await callerAs(db(), owner)
    const course = await createCreatorCourse(db(), owner)
    await asOwner.studioPublishing.invite({ courseId: course.id, email: 'co1@example.test' })
    await asOwner.schools.invite({ email: 's1@example.test', role: 'support' })
    await asOwner.schools.invite({ email: 's2@example.test', role: 'finance' })
    // Re-inviting someone already counted is not a new seat.
    await asOwner.schools.invite({ email: 's2@example.test', role: 'instructor' })
    expect(await failure(asOwner.schools.invite({ email: 's3@example.test', role: 'support' }))).toBe(
      'PRECONDITION_FAILED: Your plan allows up to 3 people in your team: remove someone or upgrade to Enterprise',
    )
    expect((await asOwner.schools.mine()).teamSize).toBe(3)

    const big = await callerAs(db(), await createCreator(db(), { plan: 'enterprise' }))
    for (let n = 0; n < 5; n++) await big.schools.invite({ email: `e${n}@example.test`, role: 'support' })
    expect((await big.schools.mine()).invites).toHaveLength(5)
  })
})

describe('each role × action, on the server', () => {
  it('owner, instructor, finance, support and an outsider', async () => {
    const owner = await createCreator(db(), { plan: 'enterprise' })
    const course = await createCreatorCourse(db(), owner, { status: 'published' })
    await sell(db(), [{ id: course.id, title: course.title, price_minor: 4900 }])
    const schoolId = (await (await callerAs(db(), owner)).schools.mine()).school.id
    const asOwner = await callerAs(db(), owner)
    const asInstructor = await join(owner, await createUser(db()), 'instructor')
    const asFinance = await join(owner, await createUser(db()), 'finance')
    const asSupport = await join(owner, await createUser(db()), 'support')
    const asOutsider = await callerAs(db(), await createCreator(db(), { plan: 'pro' }))

    const edit = (caller: typeof asOwner) =>
      failure(caller.studio.addSection({ courseId: course.id, title: 'A new section' }))
    const read = (caller: typeof asOwner) => failure(caller.studio.course({ courseId: course.id }))
    const earnings = (caller: typeof asOwner) => failure(caller.earnings.overview({ schoolId }))
    const questions = (caller: typeof asOwner) => failure(caller.questions.reports({ courseId: course.id }))
    const manage = (caller: typeof asOwner) =>
      failure(caller.schools.invite({ email: 'x@example.test', role: 'support' }))

    const forbidden = (role: string) => `FORBIDDEN: Your role in this school (${role}) does not allow that`
    const notCreator = 'FORBIDDEN: Only approved creators can use the studio'
    // The questions' own refusal (flows/lesson-questions.ts), asked of the same helper.
    const moderatorsOnly = 'FORBIDDEN: Only the course’s instructors and staff can do that'
    const results = {
      owner: [await edit(asOwner), await read(asOwner), await earnings(asOwner), await questions(asOwner)],
      instructor: [
        await edit(asInstructor),
        await read(asInstructor),
        await earnings(asInstructor),
        await questions(asInstructor),
        await manage(asInstructor),
      ],
      finance: [
        await edit(asFinance),
        await read(asFinance),
        await earnings(asFinance),
        await questions(asFinance),
        await manage(asFinance),
      ],
      support: [
        await edit(asSupport),
        await read(asSupport),
        await earnings(asSupport),
        await questions(asSupport),
        await manage(asSupport),
      ],
      outsider: [
        await edit(asOutsider),
        await read(asOutsider),
        await earnings(asOutsider),
        await questions(asOutsider),
      ],
    }
    expect(results).toEqual({
      owner: ['OK', 'OK', 'OK', 'OK'],
      instructor: ['OK', 'OK', forbidden('instructor'), 'OK', notCreator],
      finance: [forbidden('finance'), forbidden('finance'), 'OK', moderatorsOnly, notCreator],
      support: [forbidden('support'), forbidden('support'), forbidden('support'), 'OK', notCreator],
      outsider: [
        'NOT_FOUND: Course not found',
        'NOT_FOUND: Course not found',
        'NOT_FOUND: School not found',
        moderatorsOnly,
      ],
    })
    // The finance member reads the owner's ledger: the sale is there.
    const overview = await asFinance.earnings.overview({ schoolId })
    expect(overview.balances.length).toBeGreaterThan(0)
    // Without a school named, a member who is not a creator has no ledger of their own.
    expect(await failure(asFinance.earnings.overview())).toBe(notCreator)
  })

  it('the matrix itself: only the owner manages the school', async () => {
    for (const role of ['instructor', 'finance', 'support'] as const) {
      expect(roleAllows(role, 'school.manage')).toBe(false)
    }
    expect(SCHOOL_PERMISSIONS.finance).toEqual(['earnings.view'])
    const owner = await createCreator(db(), { plan: 'pro' })
    const schoolId = (await (await callerAs(db(), owner)).schools.mine()).school.id
    const member = await createUser(db())
    await join(owner, member, 'instructor')
    await expect(assertSchoolAction(db(), owner.id, schoolId, 'school.manage')).resolves.toMatchObject({
      role: 'owner',
    })
    await expect(assertSchoolAction(db(), member.id, schoolId, 'school.manage')).rejects.toThrow(
      'Your role in this school (instructor) does not allow that',
    )
  })
})

describe('a member’s list of the school’s courses', () => {
  it('lists them for instructor (editing) and support (reading), refuses finance and strangers', async () => {
    const owner = await createCreator(db(), { plan: 'pro' })
    const course = await createCreatorCourse(db(), owner, { status: 'draft', title: 'Team-made course' })
    const schoolId = (await (await callerAs(db(), owner)).schools.mine()).school.id
    const instructor = await join(owner, await createUser(db()), 'instructor')
    const support = await join(owner, await createUser(db()), 'support')
    const finance = await join(owner, await createUser(db()), 'finance')
    const stranger = await callerAs(db(), await createUser(db()))

    expect(await instructor.schools.memberCourses({ schoolId })).toEqual([
      { id: course.id, title: 'Team-made course', status: 'draft', canEdit: true },
    ])
    expect(await support.schools.memberCourses({ schoolId })).toEqual([
      { id: course.id, title: 'Team-made course', status: 'draft', canEdit: false },
    ])
    expect(await failure(finance.schools.memberCourses({ schoolId }))).toBe(
      'FORBIDDEN: Your role in this school (finance) does not allow that',
    )
    expect(await failure(stranger.schools.memberCourses({ schoolId }))).toBe('NOT_FOUND: School not found')
    // The instructor opens the course in the studio's editor (the studio lets a school member through to it).
    expect((await instructor.studio.course({ courseId: course.id })).title).toBe('Team-made course')
    expect((await instructor.studio.categories()).length).toBeGreaterThan(0)
  })
})
