// Issue 28 (and 31): payouts move a creator's money, so with STAFF_2FA=required a creator must turn on two-factor
// sign-in before Stripe's onboarding opens; STAFF_2FA=optional waives it, as it does for staff.
import { decodeBase32IgnorePadding } from '@oslojs/encoding'
import { generateHOTP } from '@oslojs/otp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { totpStep } from '../../../src-server/auth/totp.ts'
import { confirmTotpEnrolment, startTotpEnrolment } from '../../../src-server/auth/two-factor.ts'
import {
  payoutsNeedSecondFactor,
  SECOND_FACTOR_BEFORE_PAYOUTS,
  setUpPayouts,
} from '../../../src-server/flows/creator-payouts.ts'
import { createStripeApi } from '../../../src-server/payments/stripe.ts'
import { createCreator } from '../../support/creator-courses.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'
import { type FakeStripe, startFakeStripe } from '../../support/fake-stripe.ts'

let database: TestDatabase
let fake: FakeStripe
beforeAll(async () => {
  database = await createTestDatabase()
  fake = await startFakeStripe()
})
afterAll(async () => {
  await fake.close()
  await database.close()
})

const urls = { returnUrl: 'http://storefront.test/studio/payouts?return=1', refreshUrl: 'http://storefront.test/x' }

describe('a second factor before payouts', () => {
  it('refuses to open onboarding without one, and opens it once the creator has one', async () => {
    const db = database.db
    const stripe = createStripeApi({ secretKey: fake.secretKey, apiUrl: fake.url })
    const creator = await createCreator(db, { plan: 'pro' })
    expect(await payoutsNeedSecondFactor(db, creator.id, true)).toBe(true)
    await expect(setUpPayouts(db, stripe, creator, urls, { requireSecondFactor: true })).rejects.toMatchObject({
      kind: 'precondition',
      message: SECOND_FACTOR_BEFORE_PAYOUTS,
    })
    // Nothing was made at Stripe or here.
    const none = await db
      .selectFrom('creator_payout_accounts')
      .select('creator_id')
      .where('creator_id', '=', creator.id)
      .execute()
    expect(none).toEqual([])

    const settings = { publicUrl: 'http://storefront.test' }
    const { manualKey } = await startTotpEnrolment(db, creator, settings)
    const key = decodeBase32IgnorePadding(manualKey.replace(/ /g, ''))
    await confirmTotpEnrolment(db, creator.id, generateHOTP(key, BigInt(totpStep(new Date())), 6), settings)
    expect(await payoutsNeedSecondFactor(db, creator.id, true)).toBe(false)
    const link = await setUpPayouts(db, stripe, creator, urls, { requireSecondFactor: true })
    expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/connect\/onboarding\//)
  })

  it('is waived when STAFF_2FA=optional', async () => {
    const creator = await createCreator(database.db, { plan: 'pro' })
    expect(await payoutsNeedSecondFactor(database.db, creator.id, false)).toBe(false)
  })
})
