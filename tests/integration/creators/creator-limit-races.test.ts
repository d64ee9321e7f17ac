// A creator plan's limits under simultaneous calls (PostgreSQL only, tests/support/race.ts): the publishing slots
// (republish, submit for review) and the team seats (invitation, acceptance) were checked outside any transaction, so
// two calls at once both saw the last free slot or seat and both took it (6 of 5 courses, 4 of 3 people). Each check
// and its write now run in one transaction under the owner's lock (flows/creator-standing.ts).
import { TRPCError } from '@trpc/server'
import { afterAll, beforeAll, describe, expect } from 'vitest'
import { createInvite } from '../../../src-server/creators/invites.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { approveAsShown, createCreator, createCreatorCourse } from '../../support/creator-courses.ts'
import { createTestDatabase } from '../../support/db.ts'
import { callerAs, createUser } from '../../support/factories.ts'
import { raceIt } from '../../support/race.ts'

let database: DatabaseHandle
const db = () => database.db

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(async () => {
  await database?.close()
})

/** Each call's outcome: 'OK' or its tRPC refusal. */
const outcome = (promise: Promise<unknown>) =>
  promise.then(
    () => 'OK',
    (error: unknown) => {
      if (error instanceof TRPCError) return `${error.code}: ${error.message}`
      throw error
    },
  )

const BASIC_FULL = 'PRECONDITION_FAILED: Your Basic plan publishes up to 5 courses: upgrade your plan to publish more'

async function publishedCount(ownerId: string) {
  const row = await db()
    .selectFrom('courses')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('owner_id', '=', ownerId)
    .where('status', '=', 'published')
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

describe('publishing slots under simultaneous calls', () => {
  raceIt('two republishes at once take the Basic plan’s last slot once', async () => {
    const creator = await createCreator(db(), { plan: 'basic' })
    for (let n = 0; n < 4; n++) await createCreatorCourse(db(), creator, { status: 'published' })
    const hidden = [
      await createCreatorCourse(db(), creator, { status: 'unpublished' }),
      await createCreatorCourse(db(), creator, { status: 'unpublished' }),
    ]
    const callers = [await callerAs(db(), creator), await callerAs(db(), creator)]
    const results = await Promise.all(
      hidden.map((course, i) => outcome(callers[i]!.studioPublishing.republish({ courseId: course.id }))),
    )
    expect(results.sort()).toEqual(['OK', BASIC_FULL])
    expect(await publishedCount(creator.id)).toBe(5)
  })

  raceIt('two submissions at once leave a slot for one, and staff can approve it', async () => {
    const creator = await createCreator(db(), { plan: 'basic' })
    for (let n = 0; n < 4; n++) await createCreatorCourse(db(), creator, { status: 'published' })
    const drafts = [await createCreatorCourse(db(), creator), await createCreatorCourse(db(), creator)]
    const callers = [await callerAs(db(), creator), await callerAs(db(), creator)]
    const results = await Promise.all(
      drafts.map((course, i) => outcome(callers[i]!.studioPublishing.submit({ courseId: course.id }))),
    )
    expect(results.sort()).toEqual(['OK', BASIC_FULL])
    const pending = await db()
      .selectFrom('course_submissions')
      .select('id')
      .where('course_id', 'in', [drafts[0]!.id, drafts[1]!.id])
      .where('status', '=', 'pending')
      .execute()
    expect(pending).toHaveLength(1)
    const staff = await callerAs(db(), await createUser(db(), { role: 'editor' }))
    await approveAsShown(staff, pending[0]!.id)
    expect(await publishedCount(creator.id)).toBe(5)
  })
})

const PRO_TEAM_FULL =
  'PRECONDITION_FAILED: Your plan allows up to 3 people in your team: remove someone or upgrade to Enterprise'

describe('team seats under simultaneous calls', () => {
  raceIt('two invitations at once take the Pro plan’s last seat once', async () => {
    const owner = await createCreator(db(), { plan: 'pro' })
    const course = await createCreatorCourse(db(), owner, { status: 'published' })
    const asOwner = [await callerAs(db(), owner), await callerAs(db(), owner)]
    for (const email of ['seat1@example.test', 'seat2@example.test']) {
      await asOwner[0]!.studioPublishing.invite({ courseId: course.id, email })
    }
    const results = await Promise.all(
      ['seat3@example.test', 'seat4@example.test'].map((email, i) =>
        outcome(asOwner[i]!.studioPublishing.invite({ courseId: course.id, email })),
      ),
    )
    expect(results.sort()).toEqual(['OK', PRO_TEAM_FULL])
    const open = await db()
      .selectFrom('course_instructor_invites')
      .select('email')
      .where('course_id', '=', course.id)
      .execute()
    expect(open).toHaveLength(3)
  })

  raceIt('two acceptances at once fill the Pro plan’s last seat once', async () => {
    const owner = await createCreator(db(), { plan: 'pro' })
    const course = await createCreatorCourse(db(), owner, { status: 'published' })
    // Four open invitations (made directly: the invitation itself now refuses the fourth), two accepted first.
    const invitees = []
    for (let n = 1; n <= 4; n++) {
      const user = await createUser(db(), { email: `accept${n}-${owner.id.slice(0, 8)}@example.test` })
      const { token } = await createInvite(
        db(),
        { scope: 'course', id: course.id },
        { email: user.email, invitedBy: owner.id },
        new Date(),
      )
      invitees.push({ user, token, caller: await callerAs(db(), user) })
    }
    for (const { caller, token } of invitees.slice(0, 2)) await caller.studioPublishing.acceptInvitation({ token })
    const results = await Promise.all(
      invitees.slice(2).map(({ caller, token }) => outcome(caller.studioPublishing.acceptInvitation({ token }))),
    )
    expect(results.sort()).toEqual([
      'OK',
      'PRECONDITION_FAILED: The course owner’s plan has no room for another co-instructor now',
    ])
    const members = await db()
      .selectFrom('course_instructors')
      .select('user_id')
      .where('course_id', '=', course.id)
      .where('role', '=', 'co')
      .execute()
    expect(members).toHaveLength(3)
  })
})
