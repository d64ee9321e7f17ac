// Co-instructors against a real database: the owner invites by e-mail (the token hashed, mailed once), the invitee
// signed in with that address accepts, the plan's team size (Basic none, Pro 3 people, Enterprise unlimited), the
// owner removes; a co-instructor edits and submits but cannot unpublish, delete or manage the team.
import { TRPCError } from '@trpc/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { COURSE_INVITE_MAIL } from '../../../src-server/flows/course-team-invites.ts'
import { SCHOOL_INVITE_MAIL } from '../../../src-server/flows/school-team.ts'
import { TOO_MANY_INVITES } from '../../../src-server/flows/team-invites.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { latestMailTo } from '../../../src-server/mail/outbox.ts'
import { createCreator, createCreatorCourse } from '../../support/creator-courses.ts'
import { createTestDatabase } from '../../support/db.ts'
import { callerAs, createUser } from '../../support/factories.ts'

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

/** The token of the newest invitation mailed to the address (the test reads the mail as the invitee would). */
async function mailedToken(email: string) {
  const mail = await latestMailTo(db(), email, COURSE_INVITE_MAIL)
  const token = mail?.text_body.match(/course-invite\?token=([a-z0-9]+)/)?.[1]
  if (!token) throw new Error('no invitation mailed')
  return token
}

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(async () => {
  await database?.close()
})

describe('inviting and accepting a co-instructor', () => {
  it('stores only the token’s hash; the invitee signed in with that address accepts once and may edit', async () => {
    const owner = await createCreator(db(), { plan: 'pro' })
    const course = await createCreatorCourse(db(), owner, { status: 'published' })
    const asOwner = await callerAs(db(), owner)
    const invitee = await createUser(db(), { email: 'co.teacher@example.test' })
    await asOwner.studioPublishing.invite({ courseId: course.id, email: 'Co.Teacher@Example.test' })
    const token = await mailedToken('co.teacher@example.test')
    const stored = await db().selectFrom('course_instructor_invites').select(['token_hash', 'email']).execute()
    expect(stored).toHaveLength(1)
    expect(Buffer.from(stored[0]?.token_hash ?? []).toString('utf8')).not.toContain(token)
    expect(JSON.stringify(stored)).not.toContain(token)

    const panel = await asOwner.studioPublishing.team({ courseId: course.id })
    expect(panel.invites.map((i) => i.email)).toEqual(['co.teacher@example.test'])
    expect(panel.teamLimit).toBe(3)

    // Before accepting, the invitee has no studio at all.
    const asInvitee = await callerAs(db(), invitee)
    expect(await failure(asInvitee.studioPublishing.page({ courseId: course.id }))).toBe(
      'FORBIDDEN: Only approved creators can use the studio',
    )
    // Someone else signed in with the link is refused.
    const stranger = await callerAs(db(), await createUser(db()))
    expect(await failure(stranger.studioPublishing.acceptInvitation({ token }))).toBe(
      'FORBIDDEN: This invitation was sent to co.teacher@example.test: sign in with that address',
    )
    expect(await asInvitee.studioPublishing.invitation({ token })).toMatchObject({
      courseTitle: course.title,
      invitedBy: owner.email,
      forThisAccount: true,
    })
    expect(await asInvitee.studioPublishing.acceptInvitation({ token })).toEqual({ courseId: course.id })
    expect(await failure(asInvitee.studioPublishing.acceptInvitation({ token }))).toBe(
      'NOT_FOUND: This invitation link is invalid or has expired. Ask the course owner for a new one.',
    )

    // A co-instructor (not a creator) reaches this course only, and cannot unpublish, delete or manage the team.
    const page = await asInvitee.studioPublishing.page({ courseId: course.id })
    expect(page.role).toBe('co')
    const other = await createCreatorCourse(db(), owner)
    expect(await failure(asInvitee.studioPublishing.page({ courseId: other.id }))).toBe('NOT_FOUND: Course not found')
    const notCreator = 'FORBIDDEN: Only approved creators can use the studio'
    expect(await failure(asInvitee.studioPublishing.unpublish({ courseId: course.id }))).toBe(notCreator)
    expect(await failure(asInvitee.studioPublishing.delete({ courseId: course.id }))).toBe(notCreator)
    expect(await failure(asInvitee.studioPublishing.team({ courseId: course.id }))).toBe(notCreator)

    const members = await asOwner.studioPublishing.team({ courseId: course.id })
    expect(members.members.map((m) => m.email)).toEqual(['co.teacher@example.test'])
    expect(members.invites).toEqual([])
    await asOwner.studioPublishing.removeCoInstructor({ courseId: course.id, userId: invitee.id })
    expect(await failure(asInvitee.studioPublishing.page({ courseId: course.id }))).toBe(
      'FORBIDDEN: Only approved creators can use the studio',
    )
  })

  it('a co-instructor who is a creator cannot unpublish or delete the owner’s course', async () => {
    const owner = await createCreator(db(), { plan: 'pro' })
    const course = await createCreatorCourse(db(), owner, { status: 'published' })
    const colleague = await createCreator(db(), { plan: 'basic' })
    await (await callerAs(db(), owner)).studioPublishing.invite({ courseId: course.id, email: colleague.email })
    const asColleague = await callerAs(db(), colleague)
    await asColleague.studioPublishing.acceptInvitation({ token: await mailedToken(colleague.email) })
    const ownerOnly = 'FORBIDDEN: Only the course owner can do that'
    expect(await failure(asColleague.studioPublishing.unpublish({ courseId: course.id }))).toBe(ownerOnly)
    expect(await failure(asColleague.studioPublishing.delete({ courseId: course.id }))).toBe(ownerOnly)
    expect(await failure(asColleague.studioPublishing.invite({ courseId: course.id, email: 'x@example.test' }))).toBe(
      ownerOnly,
    )
    const status = await db()
      .selectFrom('courses')
      .select('status')
      .where('id', '=', course.id)
      .executeTakeFirstOrThrow()
    expect(status.status).toBe('published')
  })
})

describe('the plan’s team size', () => {
  it('Basic has no co-instructors', async () => {
    const owner = await createCreator(db(), { plan: 'basic' })
    const course = await createCreatorCourse(db(), owner)
    expect(
      await failure(
        (await callerAs(db(), owner)).studioPublishing.invite({ courseId: course.id, email: 'a@example.test' }),
      ),
    ).toBe('PRECONDITION_FAILED: Your Basic plan has no co-instructors: upgrade to Pro to invite up to 3 people')
    expect(
      await db().selectFrom('course_instructor_invites').select('id').where('course_id', '=', course.id).execute(),
    ).toEqual([])
  })

  it('Pro counts 3 distinct people across the owner’s courses; Enterprise has no limit', async () => {
    const owner = await createCreator(db(), { plan: 'pro' })
    const asOwner = await callerAs(db(), owner)
    const first = await createCreatorCourse(db(), owner)
    const second = await createCreatorCourse(db(), owner)
    for (const email of ['p1@example.test', 'p2@example.test', 'p3@example.test']) {
      await asOwner.studioPublishing.invite({ courseId: first.id, email })
    }
    // The same person on another course is still one of the three.
    await asOwner.studioPublishing.invite({ courseId: second.id, email: 'p1@example.test' })
    expect(await failure(asOwner.studioPublishing.invite({ courseId: second.id, email: 'p4@example.test' }))).toBe(
      'PRECONDITION_FAILED: Your plan allows up to 3 people in your team: remove someone or upgrade to Enterprise',
    )
    // Cancelling an invitation frees its place.
    const panel = await asOwner.studioPublishing.team({ courseId: first.id })
    const p3 = panel.invites.find((i) => i.email === 'p3@example.test')
    await asOwner.studioPublishing.cancelInvite({ courseId: first.id, inviteId: p3?.id as string })
    await asOwner.studioPublishing.invite({ courseId: second.id, email: 'p4@example.test' })

    const big = await createCreator(db(), { plan: 'enterprise' })
    const asBig = await callerAs(db(), big)
    const course = await createCreatorCourse(db(), big)
    for (let n = 0; n < 5; n++)
      await asBig.studioPublishing.invite({ courseId: course.id, email: `e${n}@example.test` })
    expect((await asBig.studioPublishing.team({ courseId: course.id })).invites).toHaveLength(5)
  })

  it('an owner mails at most 30 invitations an hour, course and school ones together, withdrawn ones included (decision 0117)', async () => {
    const owner = await createCreator(db(), { plan: 'pro' })
    const asOwner = await callerAs(db(), owner)
    const course = await createCreatorCourse(db(), owner)
    // A Pro team has 3 seats, but withdrawing an invitation frees its seat: without the limit, invite-and-withdraw
    // would mail any number of addresses.
    for (let n = 0; n < 30; n++) {
      const email = `cycle${n}@example.test`
      if (n % 2 === 0) await asOwner.studioPublishing.invite({ courseId: course.id, email })
      else await asOwner.schools.invite({ email, role: 'instructor' })
      const [courseInvites, schoolInvites] = await Promise.all([
        asOwner.studioPublishing.team({ courseId: course.id }),
        asOwner.schools.mine(),
      ])
      const open = courseInvites.invites.find((invite) => invite.email === email)
      if (open) await asOwner.studioPublishing.cancelInvite({ courseId: course.id, inviteId: open.id })
      const school = schoolInvites.invites.find((invite) => invite.email === email)
      if (school) await asOwner.schools.cancelInvite({ inviteId: school.id })
    }
    expect(
      await failure(asOwner.studioPublishing.invite({ courseId: course.id, email: 'one-more@example.test' })),
    ).toBe(`TOO_MANY_REQUESTS: ${TOO_MANY_INVITES}`)
    expect(await failure(asOwner.schools.invite({ email: 'one-more@example.test', role: 'instructor' }))).toBe(
      `TOO_MANY_REQUESTS: ${TOO_MANY_INVITES}`,
    )
    expect(await latestMailTo(db(), 'one-more@example.test', COURSE_INVITE_MAIL)).toBeUndefined()
    expect(await latestMailTo(db(), 'one-more@example.test', SCHOOL_INVITE_MAIL)).toBeUndefined()
    // Another owner has their own count.
    const other = await createCreator(db(), { plan: 'pro' })
    const otherCourse = await createCreatorCourse(db(), other)
    await (await callerAs(db(), other)).studioPublishing.invite({
      courseId: otherCourse.id,
      email: 'one-more@example.test',
    })
    expect(await latestMailTo(db(), 'one-more@example.test', COURSE_INVITE_MAIL)).toBeDefined()
  })

  it('an invitation refused for a full plan does not count towards the hourly limit', async () => {
    const owner = await createCreator(db(), { plan: 'pro' })
    const asOwner = await callerAs(db(), owner)
    const course = await createCreatorCourse(db(), owner)
    for (const email of ['s1@example.test', 's2@example.test', 's3@example.test'])
      await asOwner.studioPublishing.invite({ courseId: course.id, email })
    for (let n = 0; n < 31; n++) {
      expect(await failure(asOwner.studioPublishing.invite({ courseId: course.id, email: 's4@example.test' }))).toMatch(
        /^PRECONDITION_FAILED: Your plan allows up to 3 people/,
      )
    }
  })

  it('re-checks at acceptance: after a downgrade to Basic an invitation cannot be accepted', async () => {
    const owner = await createCreator(db(), { plan: 'pro' })
    const course = await createCreatorCourse(db(), owner)
    const invitee = await createUser(db())
    await (await callerAs(db(), owner)).studioPublishing.invite({ courseId: course.id, email: invitee.email })
    await db().updateTable('subscriptions').set({ plan_id: 'basic' }).where('user_id', '=', owner.id).execute()
    expect(
      await failure(
        (await callerAs(db(), invitee)).studioPublishing.acceptInvitation({ token: await mailedToken(invitee.email) }),
      ),
    ).toBe('PRECONDITION_FAILED: The course owner’s plan has no room for another co-instructor now')
    expect(
      await db().selectFrom('course_instructors').select('user_id').where('user_id', '=', invitee.id).execute(),
    ).toEqual([])
  })

  it('refuses staff accounts, the owner’s own address, and someone already on the course', async () => {
    const owner = await createCreator(db(), { plan: 'pro' })
    const course = await createCreatorCourse(db(), owner)
    const asOwner = await callerAs(db(), owner)
    const staff = await createUser(db(), { role: 'editor' })
    // A staff address is invited as any address is (decision 0114): the answer does not tell a creator which
    // addresses are the staff's. The staff account cannot accept it.
    const asStaffInvite = await asOwner.studioPublishing.invite({ courseId: course.id, email: staff.email })
    const stranger = await asOwner.studioPublishing.invite({ courseId: course.id, email: 'nobody-here@example.com' })
    expect(Object.keys(asStaffInvite)).toEqual(Object.keys(stranger))
    expect(
      await failure(
        (await callerAs(db(), staff)).studioPublishing.acceptInvitation({ token: await mailedToken(staff.email) }),
      ),
    ).toBe('FORBIDDEN: Staff accounts cannot be co-instructors')
    expect(
      await db().selectFrom('course_instructors').select('user_id').where('user_id', '=', staff.id).execute(),
    ).toEqual([])
    expect(await failure(asOwner.studioPublishing.invite({ courseId: course.id, email: owner.email }))).toBe(
      'BAD_REQUEST: You already own this course',
    )
    expect(await failure(asOwner.studioPublishing.invite({ courseId: course.id, email: 'not an address' }))).toContain(
      'Enter a valid e-mail address',
    )
  })
})
