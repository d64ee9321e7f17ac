// A creator's school and team against a real database (decision 0057): the school made on first use, the owner's
// invitations by e-mail with a role (the token hashed, single use), the plan's team size (none without a plan or on
// Basic, 3 people on Pro, unlimited on Enterprise), and every role × action through the real procedures: a finance
// member sees earnings but cannot edit a course; an instructor edits but cannot see earnings; support answers
// questions only; only the owner manages the team.
import { TRPCError } from '@trpc/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { assertSchoolAction, roleAllows, SCHOOL_PERMISSIONS } from '../../../src-server/creators/school-access.ts'
import { SCHOOL_INVITE_MAIL } from '../../../src-server/flows/school-team.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { latestMailTo } from '../../../src-server/mail/outbox.ts'
import { createCreator, createCreatorCourse } from '../../support/creator-courses.ts'
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
    expect(await asInvitee.schools.acceptInvitation({ token })).toMatchObject({ role: 'finance' })
    // Reuse is refused, by the invitee and by anyone else.
    const invalid = 'NOT_FOUND: This invitation link is invalid or has expired. Ask the school’s owner for a new one.'
    expect(await failure(asInvitee.schools.acceptInvitation({ token }))).toBe(invalid)
    expect(await failure(asInvitee.schools.invitation({ token }))).toBe(invalid)
    expect(await asInvitee.schools.memberships()).toEqual([expect.objectContaining({ role: 'finance' })])

    await asOwner.schools.setRole({ userId: invitee.id, role: 'support' })
    expect((await asOwner.schools.mine()).members).toEqual([
      expect.objectContaining({ email: 'fin.person@example.test', role: 'support' }),
    ])
    await asOwner.schools.remove({ userId: invitee.id })
    expect(await asInvitee.schools.memberships()).toEqual([])
    expect(await failure(asOwner.schools.remove({ userId: invitee.id }))).toBe('NOT_FOUND: Team member not found')
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
