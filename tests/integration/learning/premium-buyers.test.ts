// A Premium member who also buys a course of Premium holds it both ways: buying it must not take away what Premium
// already gave them (their offline pass, the dripped sections Premium had opened). The purchase comes first in
// courseAccessSource, so each rule that reads the source has to give the member's benefit too.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { OFFLINE_PASS_DAYS } from '../../../src-server/flows/offline-lessons.ts'
import * as clock from '../../../src-server/kernel/clock.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'
import { callerAs, type TestUser } from '../../support/factories.ts'
import { buyerOfCourse, premiumMember } from '../../support/learning.ts'

const INCLUDED = 'modern-react-typescript'
const DAY_MS = 86_400_000

let database: TestDatabase
const db = () => database.db

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(() => database.close())
afterEach(() => clock.resetClock())

const passOf = async (user: TestUser, courseId: string) =>
  (await (await callerAs(db(), user)).learning.offlinePasses({ courseIds: [courseId] }))[0]

describe('a Premium member who buys a Premium course', () => {
  it('keeps saving its lessons offline though the owner does not let buyers', async () => {
    const { user: member } = await premiumMember(db())
    expect(await passOf(member, INCLUDED)).toMatchObject({ allowed: true })
    await buyerOfCourse(db(), INCLUDED, member)
    const pass = await passOf(member, INCLUDED)
    expect(pass).toMatchObject({ courseId: INCLUDED, allowed: true, reason: null })
    const until = Date.parse(pass?.validUntil ?? '')
    expect(until).toBeGreaterThan(clock.nowMs())
    expect(until).toBeLessThanOrEqual(clock.nowMs() + OFFLINE_PASS_DAYS * DAY_MS)
  })
})
