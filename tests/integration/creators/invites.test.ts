// The one invitation machinery behind co-instructors and school teams (creators/invites.ts): each scope keeps its own
// table, a token opens only an invitation of its own scope, only the token's hash is stored, a new invitation to the
// same address replaces the open one of the same course or school only, and a claim is single use.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  cancelInvite,
  claimInvite,
  createInvite,
  findUsableInvite,
  hashInviteToken,
  INVITE_TTL_MS,
  openInvites,
} from '../../../src-server/creators/invites.ts'
import { ensureSchool } from '../../../src-server/creators/schools.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { createCreator, createCreatorCourse } from '../../support/creator-courses.ts'
import { createTestDatabase } from '../../support/db.ts'
import { createUser } from '../../support/factories.ts'

let database: DatabaseHandle
const db = () => database.db

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(async () => {
  await database?.close()
})

describe('team invitations by scope', () => {
  it('keeps course and school invitations apart; a token opens its own scope only, once', async () => {
    const owner = await createCreator(db(), { plan: 'pro' })
    const course = await createCreatorCourse(db(), owner)
    const school = await ensureSchool(db(), owner.id)
    const now = new Date()
    const toCourse = await createInvite(
      db(),
      { scope: 'course', id: course.id },
      { email: 'Pat@Example.test', invitedBy: owner.id },
      now,
    )
    const toSchool = await createInvite(
      db(),
      { scope: 'school', id: school.id },
      { email: 'pat@example.test', invitedBy: owner.id, role: 'support' },
      now,
    )
    expect(toCourse.expiresAt.getTime() - now.getTime()).toBe(INVITE_TTL_MS)

    // Only the hash is stored, in each scope's own table.
    const courseRow = await db().selectFrom('course_instructor_invites').selectAll().executeTakeFirstOrThrow()
    expect(courseRow.email).toBe('pat@example.test')
    expect(Buffer.from(courseRow.token_hash)).toEqual(Buffer.from(hashInviteToken(toCourse.token)))
    expect(JSON.stringify(courseRow)).not.toContain(toCourse.token)
    const schoolRow = await db().selectFrom('school_invites').selectAll().executeTakeFirstOrThrow()
    expect(schoolRow.role).toBe('support')

    // A token is not usable in the other scope.
    expect(await findUsableInvite(db(), 'school', toCourse.token)).toBeUndefined()
    expect(await findUsableInvite(db(), 'course', toSchool.token)).toBeUndefined()
    expect(await findUsableInvite(db(), 'course', toCourse.token)).toMatchObject({
      scope_id: course.id,
      email: 'pat@example.test',
      role: null,
    })
    expect(await findUsableInvite(db(), 'school', toSchool.token)).toMatchObject({
      scope_id: school.id,
      role: 'support',
    })

    // A new invitation replaces the open one of the same course only; the school's stays.
    const again = await createInvite(
      db(),
      { scope: 'course', id: course.id },
      { email: 'pat@example.test', invitedBy: owner.id },
    )
    expect(await findUsableInvite(db(), 'course', toCourse.token)).toBeUndefined()
    expect((await openInvites(db(), { scope: 'course', id: course.id })).map((i) => i.id)).toEqual([again.id])
    expect((await openInvites(db(), { scope: 'school', id: school.id })).map((i) => [i.id, i.role])).toEqual([
      [toSchool.id, 'support'],
    ])

    // Single use: the second claim gets nothing; a claimed invitation cannot be cancelled.
    const invitee = await createUser(db(), { email: 'pat@example.test' })
    expect(await claimInvite(db(), 'school', toSchool.id, invitee.id)).toMatchObject({ scope_id: school.id })
    expect(await claimInvite(db(), 'school', toSchool.id, invitee.id)).toBeUndefined()
    expect(await cancelInvite(db(), { scope: 'school', id: school.id }, toSchool.id)).toBe(false)
    // Cancelling needs the right course: another id does not reach it.
    expect(await cancelInvite(db(), { scope: 'course', id: school.id }, again.id)).toBe(false)
    expect(await cancelInvite(db(), { scope: 'course', id: course.id }, again.id)).toBe(true)
  })

  it('an expired invitation is neither usable nor claimable', async () => {
    const owner = await createCreator(db(), { plan: 'pro' })
    const course = await createCreatorCourse(db(), owner)
    const past = new Date(Date.now() - INVITE_TTL_MS - 60_000)
    const old = await createInvite(
      db(),
      { scope: 'course', id: course.id },
      { email: 'late@example.test', invitedBy: owner.id },
      past,
    )
    const invitee = await createUser(db(), { email: 'late@example.test' })
    expect(await findUsableInvite(db(), 'course', old.token)).toBeUndefined()
    expect(await claimInvite(db(), 'course', old.id, invitee.id)).toBeUndefined()
  })
})
