// "Download my data" (issue 28): a person's export is built by the job into a private ZIP holding their data as JSON
// and their invoices as PDFs; only they can download it, for 7 days; asking twice makes one; staff (admin and up)
// may ask for a person, audited; nobody else can. The person's own request needs a fresh proof (password, app code,
// or an e-mailed code for an account without a password) before anything is queued.
import { decodeBase32IgnorePadding } from '@oslojs/encoding'
import { generateHOTP } from '@oslojs/otp'
import { strFromU8, unzipSync } from 'fflate'
import { afterEach, describe, expect, it } from 'vitest'
import { grant } from '../../../src-server/access/ledger.ts'
import { SESSION_COOKIE } from '../../../src-server/auth/session.ts'
import { totpStep } from '../../../src-server/auth/totp.ts'
import { confirmTotpEnrolment, startTotpEnrolment } from '../../../src-server/auth/two-factor.ts'
import { buildPendingExports, EXPORT_READY_SUBJECT, requestDataExport } from '../../../src-server/flows/data-export.ts'
import { advanceClock, now, resetClock } from '../../../src-server/kernel/clock.ts'
import { StorageFailure } from '../../../src-server/kernel/storage-failure.ts'
import { latestMailTo } from '../../../src-server/mail/outbox.ts'
import { createLocalStorage } from '../../../src-server/storage/storage.ts'
import { acceptInvitation, INVITATION_MAIL_KIND, inviteMember } from '../../../src-server/team/invitations.ts'
import { changeRole } from '../../../src-server/team/members.ts'
import { seedBundle } from '../../support/bundles.ts'
import { createCreator } from '../../support/creator-courses.ts'
import { ownedCourse, sell } from '../../support/earnings.ts'
import { callerAs, createSessionToken, createUser } from '../../support/factories.ts'
import { premiumMember } from '../../support/learning.ts'
import { addQuizLesson } from '../../support/quizzes.ts'
import { serveForThisFile } from '../../support/test-server.ts'

const site = serveForThisFile()
afterEach(() => resetClock())
const silent = { info: () => {}, error: () => {} }
const build = () =>
  buildPendingExports({
    db: site.db,
    storage: createLocalStorage(site.uploadsDir),
    log: silent,
    publicUrl: 'http://storefront.test',
  })

async function download(exportId: string, userId?: string) {
  const headers: Record<string, string> = {}
  if (userId) headers.cookie = `${SESSION_COOKIE}=${(await createSessionToken(site.db, userId)).token}`
  return fetch(`${site.baseUrl}/api/account/exports/${exportId}.zip`, { headers })
}

/** Asks for the person's export, builds it and downloads it: its files, and all its JSON as one text. */
async function exportOf(userId: string) {
  const row = await requestDataExport(site.db, userId)
  await build()
  const files = unzipSync(new Uint8Array(await (await download(row.id, userId)).arrayBuffer()))
  const all = Object.entries(files)
    .filter(([name]) => name.endsWith('.json'))
    .map(([, file]) => strFromU8(file))
    .join('\n')
  return { files, all }
}

describe('download my data', () => {
  it('builds a private ZIP of the person’s data and invoices that only they can download', async () => {
    const seller = await createUser(site.db)
    const course = await ownedCourse(site.db, seller.id, 2500, 'Exported Course')
    const sale = await sell(site.db, [course])
    const buyer = sale.buyer
    const first = await requestDataExport(site.db, buyer.id)
    const again = await requestDataExport(site.db, buyer.id)
    expect(again.id).toBe(first.id)
    expect(again.status).toBe('pending')
    // Not ready yet: nothing to download.
    expect((await download(first.id, buyer.id)).status).toBe(404)

    expect((await build()).built).toBeGreaterThanOrEqual(1)
    const response = await download(first.id, buyer.id)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/zip')
    expect(response.headers.get('cache-control')).toBe('private, no-store')
    const files = unzipSync(new Uint8Array(await response.arrayBuffer()))
    expect(Object.keys(files)).toEqual(
      expect.arrayContaining(['README.txt', 'profile.json', 'orders.json', 'learning.json', 'creator.json']),
    )
    const profile = JSON.parse(strFromU8(files['profile.json'] as Uint8Array))
    expect(profile.email).toBe(buyer.email)
    expect(profile.course_update_mails).toBe(true)
    expect(profile.course_news_stopped).toEqual([])
    expect(JSON.stringify(profile)).not.toMatch(/password|secret_hash/)
    const orders = JSON.parse(strFromU8(files['orders.json'] as Uint8Array))
    expect(orders.map((order: { reference: string }) => order.reference)).toEqual([sale.reference])
    expect(orders[0].lines[0].title).toBe('Exported Course')
    // The rows' internal columns stay out: the transaction ids of the sync lists (decision 0094) mean nothing to a
    // person, though the tables carry them.
    expect(orders[0]).not.toHaveProperty('paid_xid')
    const learning = JSON.parse(strFromU8(files['learning.json'] as Uint8Array))
    expect(learning.access.length).toBeGreaterThan(0)
    expect(learning.access[0]).not.toHaveProperty('created_xid')
    expect(strFromU8(files['orders.json'] as Uint8Array) + strFromU8(files['learning.json'] as Uint8Array)).not.toMatch(
      /_xid"/,
    )
    const stored = await site.db
      .selectFrom('orders')
      .selectAll()
      .where('user_id', '=', buyer.id)
      .executeTakeFirstOrThrow()
    expect(stored).toHaveProperty('paid_xid')
    const invoice = await site.db
      .selectFrom('invoices')
      .select('number')
      .where('user_id', '=', buyer.id)
      .executeTakeFirstOrThrow()
    const pdf = files[`invoices/${invoice.number.replace(/[^A-Za-z0-9._-]/g, '_')}.pdf`]
    expect(pdf && strFromU8(pdf.slice(0, 5))).toBe('%PDF-')

    // Someone else, even knowing the id, and a visitor get nothing.
    const stranger = await createUser(site.db)
    expect((await download(first.id, stranger.id)).status).toBe(404)
    expect((await download(first.id)).status).toBe(401)

    // The person is e-mailed, with a link that carries no secret.
    const mail = await site.db
      .selectFrom('mail_outbox')
      .select(['subject', 'text_body'])
      .where('to_address', '=', buyer.email)
      .where('kind', '=', 'privacy.export_ready')
      .executeTakeFirstOrThrow()
    expect(mail.subject).toBe(EXPORT_READY_SUBJECT)
    expect(mail.text_body).toContain('http://storefront.test/account/security')

    // After 7 days the export expires and its file is removed.
    await advanceClock(8 * 24 * 3600)
    expect((await build()).expired).toBeGreaterThanOrEqual(1)
    expect((await download(first.id, buyer.id)).status).toBe(404)
  })

  it('a file storage cannot remove at expiry stays due: the others expire, and the next run removes it', async () => {
    const people = [await createUser(site.db), await createUser(site.db)]
    const rows = []
    for (const person of people) rows.push(await requestDataExport(site.db, person.id))
    await build()
    const keyOf = async (id: string) =>
      await site.db
        .selectFrom('data_exports')
        .select(['storage_key', 'status'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    const [stuck, other] = await Promise.all(rows.map((row) => keyOf(row.id)))
    const local = createLocalStorage(site.uploadsDir)
    const refusing = {
      ...local,
      async remove(key: string) {
        if (key === stuck!.storage_key) throw new StorageFailure(`S3 DELETE ${key} failed: 503 SlowDown`)
        return local.remove(key)
      },
    }
    await advanceClock(8 * 24 * 3600)
    const logged: unknown[] = []
    const deps = { db: site.db, log: { info: () => {}, error: (entry: unknown) => logged.push(entry) }, publicUrl: '' }
    await buildPendingExports({ ...deps, storage: refusing })
    expect(await keyOf(rows[1]!.id)).toMatchObject({ status: 'expired' })
    expect(await local.size(other!.storage_key!)).toBeNull()
    // Left ready past its expiry: its owner can no longer download it, and the next run tries again.
    expect(await keyOf(rows[0]!.id)).toMatchObject({ status: 'ready' })
    expect(await local.size(stuck!.storage_key!)).toBeGreaterThan(0)
    expect((await download(rows[0]!.id, people[0]!.id)).status).toBe(404)
    expect(logged).toHaveLength(1)
    await buildPendingExports({ ...deps, storage: local })
    expect(await keyOf(rows[0]!.id)).toMatchObject({ status: 'expired' })
    expect(await local.size(stuck!.storage_key!)).toBeNull()
  })

  it('holds a Premium member’s membership, messages, questions, quiz attempts and live sessions', async () => {
    const COURSE = 'modern-react-typescript'
    const instructor = await createUser(site.db)
    await site.db
      .insertInto('course_instructors')
      .values({ course_id: COURSE, user_id: instructor.id, role: 'co' })
      .execute()
    const lessonId = await addQuizLesson(site.db, COURSE, 'Exported quiz')
    const { user } = await premiumMember(site.db)
    const me = await callerAs(site.db, user)
    const { threadId } = await me.instructorMessages.send({
      courseId: COURSE,
      subject: 'Hooks',
      body: 'My question to you',
    })
    await (await callerAs(site.db, instructor)).instructorMessages.reply({ threadId, body: 'The instructor’s answer' })
    await me.questions.ask({ courseId: COURSE, lessonId, title: 'My lesson question', body: 'Why so?' })
    const attempt = await me.quizzes.start({ courseId: COURSE, lessonId })
    await me.quizzes.submit({ courseId: COURSE, lessonId, attemptId: attempt.id, answers: {} })
    const staff = await callerAs(site.db, await createUser(site.db, { role: 'editor' }))
    const day = new Date(now().getTime() + 5 * 86_400_000).toISOString().slice(0, 10)
    const session = await staff.live.schedule({
      title: 'Exported webinar',
      description: '',
      localStart: `${day}T18:00`,
      timeZone: 'Europe/Paris',
      durationMinutes: 60,
      capacity: 10,
      joinUrl: 'https://meet.example.com/abc-defg',
    })
    await me.live.register({ sessionId: session.id })

    const { files, all } = await exportOf(user.id)
    for (const words of ['My question to you', 'The instructor’s answer', 'My lesson question', 'Exported webinar']) {
      expect(all).toContain(words)
    }
    const learning = JSON.parse(strFromU8(files['learning.json'] as Uint8Array))
    expect(learning.quizAttempts).toEqual([expect.objectContaining({ id: attempt.id, lesson_id: lessonId })])
    const memberships = JSON.parse(strFromU8(files['memberships.json'] as Uint8Array))
    expect(memberships).toEqual([expect.objectContaining({ plan_id: 'pro', billing_cycle: 'monthly' })])
    expect(files['README.txt'] && strFromU8(files['README.txt'])).toContain('messages.json')
  })

  it('holds what the person wrote or set up elsewhere: refund requests, gifts, passkeys, school sign-ins, applications, payouts', async () => {
    const seller = await createUser(site.db)
    const sale = await sell(site.db, [await ownedCourse(site.db, seller.id, 1900, 'Gifted Course')])
    const buyer = sale.buyer
    const [lineId] = sale.lineIds as [string]
    await site.db
      .insertInto('refund_requests')
      .values({ order_item_id: lineId, order_id: sale.orderId, user_id: buyer.id, reason: 'The audio is out of sync' })
      .execute()
    await site.db
      .insertInto('gifts')
      .values({
        order_id: sale.orderId,
        order_item_id: lineId,
        buyer_id: buyer.id,
        recipient_email: 'sam.friend@example.test',
        message: 'Happy birthday, Sam',
        send_at: now(),
        link_origin: 'http://storefront.test',
        token_hash: 'not-exported-token-hash',
      })
      .execute()
    await site.db
      .insertInto('user_passkeys')
      .values({
        user_id: buyer.id,
        credential_id: 'cred-not-exported',
        public_key: new Uint8Array([1, 2, 3]),
        counter: 0,
        transports: 'internal',
        name: 'My laptop passkey',
        created_at: now(),
      })
      .execute()
    await site.db
      .insertInto('creator_applications')
      .values({ user_id: buyer.id, headline: 'Woodwork for beginners', proposal: 'My proposal to teach woodwork' })
      .execute()
    // A school's single sign-on that signs the person in.
    const school = await site.db
      .insertInto('schools')
      .values({ owner_id: seller.id, name: 'Acme Learning', slug: `acme-${buyer.id.slice(0, 8)}` })
      .returning('id')
      .executeTakeFirstOrThrow()
    await site.db
      .insertInto('school_sso_links')
      .values({ school_id: school.id, issuer: 'https://idp.acme.test', subject: 'acme-user-7', user_id: buyer.id })
      .execute()
    await site.db
      .insertInto('creator_payouts')
      .values({
        creator_id: buyer.id,
        month: '2026-11',
        currency: 'USD',
        amount_minor: 4321,
        stripe_account_id: 'acct_x',
      })
      .execute()

    const { files, all } = await exportOf(buyer.id)
    for (const words of [
      'The audio is out of sync',
      'Happy birthday, Sam',
      'sam.friend@example.test',
      'My laptop passkey',
      'My proposal to teach woodwork',
    ]) {
      expect(all, words).toContain(words)
    }
    const creator = JSON.parse(strFromU8(files['creator.json'] as Uint8Array))
    expect(creator.payouts).toEqual([expect.objectContaining({ month: '2026-11', amount_minor: 4321 })])
    const profile = JSON.parse(strFromU8(files['profile.json'] as Uint8Array))
    expect(profile.schoolSignIns).toEqual([
      expect.objectContaining({ school: 'Acme Learning', issuer: 'https://idp.acme.test', subject: 'acme-user-7' }),
    ])
    // Secrets and keys stay out.
    expect(all).not.toContain('not-exported-token-hash')
    expect(all).not.toContain('cred-not-exported')
    expect(all).not.toContain('public_key')
  })

  it('holds what creators and members keep elsewhere: profile, payments, files, blocks, reports, gifts, uploads', async () => {
    const COURSE = 'modern-react-typescript'
    const { user } = await premiumMember(site.db)
    const subscription = await site.db
      .selectFrom('subscriptions')
      .select('id')
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow()
    await site.db
      .insertInto('subscription_invoices')
      .values({
        subscription_id: subscription.id,
        user_id: user.id,
        amount_minor: 2900,
        currency: 'USD',
        billing_reason: 'subscription_cycle',
        paid_at: now(),
      })
      .execute()
    await site.db
      .insertInto('instructors')
      .values({
        name: 'Exported Instructor',
        slug: `exported-${user.id}`,
        bio: 'My instructor biography',
        user_id: user.id,
      })
      .execute()
    const teacher = await createUser(site.db)
    const thread = await site.db
      .insertInto('course_message_threads')
      .values({ course_id: COURSE, member_id: user.id, subject: 'About hooks' })
      .returning('id')
      .executeTakeFirstOrThrow()
    await site.db
      .insertInto('course_message_files')
      .values({
        course_id: COURSE,
        thread_id: thread.id,
        storage_key: 'private/messages/not-exported-key.pdf',
        file_name: 'my-exported-notes.pdf',
        content_type: 'application/pdf',
        size_bytes: 10,
        uploaded_by: user.id,
      })
      .execute()
    await site.db
      .insertInto('course_message_blocks')
      .values({ course_id: COURSE, member_id: user.id, blocked_by: teacher.id, reason: 'Blocked for the export test' })
      .execute()
    await site.db
      .insertInto('course_message_reports')
      .values({ thread_id: thread.id, reporter_id: user.id, reason: 'Reported for the export test' })
      .execute()
    const sale = await sell(site.db, [await ownedCourse(site.db, teacher.id, 1500, 'A course given to them')])
    await site.db
      .insertInto('gifts')
      .values({
        order_id: sale.orderId,
        order_item_id: sale.lineIds[0] as string,
        buyer_id: sale.buyer.id,
        recipient_email: user.email,
        message: 'Enjoy it, from your sister',
        send_at: now(),
        link_origin: 'http://storefront.test',
        claimed_by: user.id,
        claimed_at: now(),
      })
      .execute()
    await site.db
      .insertInto('premium_watch_time')
      .values({ month: '2026-11', course_id: COURSE, user_id: user.id, seconds: 4242 })
      .execute()
    await site.db
      .insertInto('creator_uploads')
      .values({
        id: `exp-${user.id}`,
        user_id: user.id,
        storage_owner_id: user.id,
        size_bytes: 10,
        status: 'stored',
        file_name: 'my-lesson-video.mp4',
      })
      .execute()

    const { files, all } = await exportOf(user.id)
    for (const words of [
      'My instructor biography',
      'my-exported-notes.pdf',
      'Blocked for the export test',
      'Reported for the export test',
      'Enjoy it, from your sister',
      'my-lesson-video.mp4',
    ]) {
      expect(all, words).toContain(words)
    }
    const payments = JSON.parse(strFromU8(files['membership-payments.json'] as Uint8Array))
    expect(payments).toEqual([expect.objectContaining({ amount_minor: 2900, billing_reason: 'subscription_cycle' })])
    const learning = JSON.parse(strFromU8(files['learning.json'] as Uint8Array))
    expect(learning.premiumWatchTime).toEqual([
      { month: '2026-11', course_id: COURSE, course_title: expect.any(String), seconds: 4242 },
    ])
    expect(all).not.toContain('not-exported-key')
  })

  it('holds the answers to their questions by part, the giver of a gift, course titles, and "Staff" or "Instructor" for who gave or changed a row', async () => {
    const COURSE = 'modern-react-typescript'
    const course = await site.db
      .selectFrom('courses')
      .select('title')
      .where('id', '=', COURSE)
      .executeTakeFirstOrThrow()
    const lessonId = await addQuizLesson(site.db, COURSE, 'Lesson with answers')
    const instructor = await createUser(site.db, { firstName: 'Ines', lastName: 'Instructorson' })
    await site.db
      .insertInto('course_instructors')
      .values({ course_id: COURSE, user_id: instructor.id, role: 'co' })
      .execute()
    const editor = await createUser(site.db, { role: 'editor', firstName: 'Edna', lastName: 'Staffwell' })
    const { user } = await premiumMember(site.db)
    const { user: classmate } = await premiumMember(site.db)
    await site.db
      .updateTable('users')
      .set({ first_name: 'Cleo', last_name: 'Classmateson' })
      .where('id', '=', classmate.id)
      .execute()
    const question = await (await callerAs(site.db, user)).questions.ask({
      courseId: COURSE,
      lessonId,
      title: 'Why do hooks run twice?',
      body: 'In development mode',
    })
    for (const [who, body] of [
      [instructor, 'Strict mode, said the instructor'],
      [editor, 'See the docs, said our staff'],
      [classmate, 'Same here, said a classmate'],
    ] as const) {
      await (await callerAs(site.db, who)).questions.answer({ questionId: question.id, body })
    }
    // A gift they claimed, from a named giver.
    const giverCourse = await ownedCourse(site.db, instructor.id, 1500, 'A gifted course with a giver')
    const sale = await sell(site.db, [giverCourse])
    await site.db
      .updateTable('users')
      .set({ first_name: 'Gwen', last_name: 'Giver' })
      .where('id', '=', sale.buyer.id)
      .execute()
    await site.db
      .insertInto('gifts')
      .values({
        order_id: sale.orderId,
        order_item_id: sale.lineIds[0] as string,
        buyer_id: sale.buyer.id,
        recipient_email: user.email,
        send_at: now(),
        link_origin: 'http://storefront.test',
        claimed_by: user.id,
        claimed_at: now(),
      })
      .execute()
    // Staff's marks on their rows: an order moved, a contact message answered, a review hidden.
    const order = await site.db
      .selectFrom('orders')
      .select('id')
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow()
    await site.db.updateTable('orders').set({ status_changed_by: editor.id }).where('id', '=', order.id).execute()
    await site.db
      .insertInto('contact_messages')
      .values({
        name: 'Me',
        email: user.email,
        user_id: user.id,
        subject: 'Hello',
        message: 'A question for support',
        reply_due_at: now(),
        answered_by: editor.id,
        answered_at: now(),
      })
      .execute()
    await site.db
      .insertInto('course_reviews')
      .values({
        course_id: COURSE,
        user_id: user.id,
        rating: 4,
        body: 'Hidden review',
        hidden_at: now(),
        hidden_by: editor.id,
      })
      .execute()
    // Access given by a person: an instructor's school enrolling them (decision 0128), a staff member.
    await grant(site.db, {
      userId: user.id,
      right: { kind: 'course', courseId: giverCourse.id },
      source: { kind: 'staff', staffId: instructor.id },
    })
    const fromStaff = await ownedCourse(site.db, instructor.id, 1200, 'A course staff gave')
    await grant(site.db, {
      userId: user.id,
      right: { kind: 'course', courseId: fromStaff.id },
      source: { kind: 'staff', staffId: editor.id },
    })

    const { files, all } = await exportOf(user.id)
    const questions = JSON.parse(strFromU8(files['questions.json'] as Uint8Array))
    expect(questions.questions).toEqual([
      expect.objectContaining({
        title: 'Why do hooks run twice?',
        course_id: COURSE,
        course_title: course.title,
        answers: [
          expect.objectContaining({ by: 'Instructor', body_markdown: 'Strict mode, said the instructor' }),
          expect.objectContaining({ by: 'Staff', body_markdown: 'See the docs, said our staff' }),
          expect.objectContaining({ by: 'Learner', body_markdown: 'Same here, said a classmate' }),
        ],
      }),
    ])
    const gifts = JSON.parse(strFromU8(files['gifts-received.json'] as Uint8Array))
    expect(gifts).toEqual([
      expect.objectContaining({
        title: 'A gifted course with a giver',
        from: 'Gwen Giver',
        course_title: giverCourse.title,
      }),
    ])
    const orders = JSON.parse(strFromU8(files['orders.json'] as Uint8Array))
    expect(orders.find((row: { id: string }) => row.id === order.id).status_changed_by).toBe('Staff')
    const contact = JSON.parse(strFromU8(files['contact-messages.json'] as Uint8Array))
    expect(contact).toEqual([expect.objectContaining({ message: 'A question for support', answered_by: 'Staff' })])
    const reviews = JSON.parse(strFromU8(files['reviews.json'] as Uint8Array))
    expect(reviews).toEqual([expect.objectContaining({ hidden_by: 'Staff', course_title: course.title })])
    const { access } = JSON.parse(strFromU8(files['learning.json'] as Uint8Array))
    const grantedBy = (courseId: string) =>
      access.find((row: { course_id: string }) => row.course_id === courseId).granted_by
    expect(grantedBy(giverCourse.id)).toBe('Instructor')
    expect(grantedBy(fromStaff.id)).toBe('Staff')
    // Nobody else by name, address or account id (the giver by name only, as the gift's e-mail named them).
    for (const [other, lastName] of [
      [instructor, 'Instructorson'],
      [editor, 'Staffwell'],
      [classmate, 'Classmateson'],
    ] as const) {
      for (const trace of [other.id, other.email, lastName]) expect(all, trace).not.toContain(trace)
    }
    expect(all).not.toContain(sale.buyer.email)
    expect(all).not.toContain(sale.buyer.id)
    expect(strFromU8(files['README.txt'] as Uint8Array)).toContain('Instructor, Staff or Learner')
  })

  it("holds a creator's coupons and bundles, with their courses' titles", async () => {
    const creator = await createCreator(site.db, { plan: 'pro' })
    const first = await ownedCourse(site.db, creator.id, 3000, 'Creator Export First')
    const second = await ownedCourse(site.db, creator.id, 2000, 'Creator Export Second')
    const studio = await callerAs(site.db, creator)
    const code = `EXPORTME${Date.now().toString(36).toUpperCase()}`
    await studio.studioCoupons.create({
      code,
      kind: 'percent',
      percentOff: 15,
      appliesTo: 'courses',
      courseIds: [first.id],
    })
    await seedBundle(site.db, {
      courseIds: [first.id, second.id],
      priceMinor: 4000,
      ownerId: creator.id,
      title: 'My Export Bundle',
    })

    const { files } = await exportOf(creator.id)
    const data = JSON.parse(strFromU8(files['creator.json'] as Uint8Array))
    expect(data.coupons).toEqual([
      expect.objectContaining({
        code,
        percent_off: 15,
        made_by: 'You',
        courses: [{ course_id: first.id, course_title: 'Creator Export First' }],
      }),
    ])
    expect(data.bundles).toEqual([
      expect.objectContaining({
        title: 'My Export Bundle',
        price_minor: 4000,
        courses: [
          { course_id: first.id, course_title: 'Creator Export First', position: 0 },
          { course_id: second.id, course_title: 'Creator Export Second', position: 1 },
        ],
      }),
    ])
  })

  it('lets an admin ask for a person who wrote in (audited), and nobody below admin', async () => {
    const person = await createUser(site.db)
    const editor = await createUser(site.db, { role: 'editor' })
    await expect(
      (await callerAs(site.db, editor)).privacy.requestExportFor({ userId: person.id }),
    ).rejects.toMatchObject({
      code: 'FORBIDDEN',
    })
    const admin = await createUser(site.db, { role: 'admin' })
    const row = await (await callerAs(site.db, admin)).privacy.requestExportFor({ userId: person.id })
    expect(row.status).toBe('pending')
    const audit = await site.db
      .selectFrom('audit_log')
      .select(['actor_id', 'action'])
      .where('entity_id', '=', person.id)
      .execute()
    expect(audit).toEqual([{ actor_id: admin.id, action: 'privacy.export_requested' }])
    // The person's own list shows it; another person's list does not.
    expect((await (await callerAs(site.db, person)).privacy.exports()).map((e) => e.id)).toEqual([row.id])
    expect(await (await callerAs(site.db, editor)).privacy.exports()).toEqual([])
  })

  it('tells the person what staff did about their account and when, as "Staff", never who', async () => {
    const person = await createUser(site.db)
    const viewer = await createUser(site.db, { role: 'viewer' })
    await (await callerAs(site.db, viewer)).admin.customers.find({ customer: person.email })
    const someoneElse = await createUser(site.db)
    await (await callerAs(site.db, viewer)).admin.customers.find({ customer: someoneElse.email })

    const { files, all } = await exportOf(person.id)
    const actions = JSON.parse(strFromU8(files['staff-actions.json'] as Uint8Array))
    expect(actions).toEqual([
      {
        what: expect.stringContaining('Looked up your account on the staff customer page'),
        action: 'customer.viewed',
        by: 'Staff',
        created_at: expect.any(String),
      },
    ])
    expect(all).not.toContain(viewer.email)
    expect(all).not.toContain(viewer.id)
    expect(strFromU8(files['README.txt'] as Uint8Array)).toContain('staff-actions.json')
  })

  it('says the person joined the staff team themselves, by "You", and a role change after by "Staff"', async () => {
    const admin = await createUser(site.db, { role: 'admin' })
    const email = `joiner-${Date.now()}@example.test`
    await inviteMember(site.db, admin, 'http://storefront.test', { name: 'Jo Iner', email, role: 'viewer' })
    const mail = await latestMailTo(site.db, email, INVITATION_MAIL_KIND)
    const token = /\/admin\/accept-invite\?token=([a-z0-9]+)/.exec(mail!.text_body)![1]!
    const joinerId = await acceptInvitation(site.db, token, 'a-strong-password')
    await changeRole(site.db, admin, joinerId, 'editor')

    const { files, all } = await exportOf(joinerId)
    const actions = JSON.parse(strFromU8(files['staff-actions.json'] as Uint8Array))
    expect(actions.map(({ what, action, by }: Record<string, string>) => ({ what, action, by }))).toEqual([
      { what: 'Joined the staff team from an invitation', action: 'team.join', by: 'You' },
      { what: 'Changed your staff role', action: 'team.role', by: 'Staff' },
    ])
    expect(all).not.toContain(admin.email)
  })

  it('asks the person to confirm it is them before queueing their export', async () => {
    const person = await createUser(site.db)
    const caller = await callerAs(site.db, person)
    const exportsOfPerson = () =>
      site.db.selectFrom('data_exports').select('id').where('user_id', '=', person.id).execute()
    // No proof, a wrong password, a made-up code: refused, and nothing is queued.
    await expect(caller.privacy.requestExport({})).rejects.toThrow(/Enter your password/)
    await expect(caller.privacy.requestExport({ password: 'not-the-password' })).rejects.toThrow(
      /password is not right/,
    )
    await expect(caller.privacy.requestExport({ code: '123456' })).rejects.toThrow(/Enter your password/)
    expect(await exportsOfPerson()).toEqual([])
    // The password: queued.
    const row = await caller.privacy.requestExport({ password: person.password })
    expect(row.status).toBe('pending')
    expect((await exportsOfPerson()).map((e) => e.id)).toEqual([row.id])

    // With two-factor on, a code from the app confirms as well.
    const other = await createUser(site.db)
    const settings = { publicUrl: 'http://storefront.test' }
    const { manualKey } = await startTotpEnrolment(site.db, other, settings)
    const key = decodeBase32IgnorePadding(manualKey.replace(/ /g, ''))
    await confirmTotpEnrolment(site.db, other.id, generateHOTP(key, BigInt(totpStep(now())), 6), settings)
    await advanceClock(60) // the enrolment's code cannot be replayed: the next window's code
    const otherCaller = await callerAs(site.db, other)
    await expect(otherCaller.privacy.requestExport({ code: '000000' })).rejects.toThrow()
    const byCode = await otherCaller.privacy.requestExport({
      code: generateHOTP(key, BigInt(totpStep(now())), 6),
    })
    expect(byCode.status).toBe('pending')
  })

  it('an account without a password confirms its export with a single-use e-mailed code', async () => {
    const person = await createUser(site.db)
    await site.db.updateTable('users').set({ password_hash: null }).where('id', '=', person.id).execute()
    const caller = await callerAs(site.db, person)
    await expect(caller.privacy.requestExport({})).rejects.toThrow(/Enter the code we e-mailed you/)
    await expect(caller.privacy.requestExport({ password: 'anything' })).rejects.toThrow(/Enter the code/)
    await expect(caller.privacy.requestExport({ code: 'aaaaaaaaaaaaa' })).rejects.toThrow(/code is not right/)
    await caller.privacy.sendConfirmationCode({ action: 'export-data' })
    const mail = await site.db
      .selectFrom('mail_outbox')
      .select('text_body')
      .where('to_address', '=', person.email)
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow()
    expect(mail.text_body).toContain('download a copy of your data')
    const code = /^ {2}Code: ([a-z2-7]{13})$/m.exec(mail.text_body)?.[1] as string
    expect(code).toBeTruthy()
    const row = await caller.privacy.requestExport({ code })
    expect(row.status).toBe('pending')
    // Used once: the same code does not confirm again.
    await expect(caller.privacy.requestExport({ code })).rejects.toThrow(/code is not right/)
  })
})
