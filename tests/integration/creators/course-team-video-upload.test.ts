// A course team's lesson videos on the real server (decision 0138): a tus upload names the course it is for; anyone
// who may edit that course's curriculum (a co-instructor with or without a plan of their own, not even a creator; a
// school's instructor) uploads it, its bytes count against the course owner's plan (checked at the start and again
// at the finish), and the lesson save takes it from any of the course's editors. Anyone else is refused.
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { SESSION_COOKIE } from '../../../src-server/auth/session.ts'
import { storageUsedBytes } from '../../../src-server/creators/limits.ts'
import { COURSE_INVITE_MAIL } from '../../../src-server/flows/course-team-invites.ts'
import { OWNER_NO_PLAN_MESSAGE } from '../../../src-server/flows/creator-standing.ts'
import { SCHOOL_INVITE_MAIL } from '../../../src-server/flows/school-team.ts'
import { latestMailTo } from '../../../src-server/mail/outbox.ts'
import { UPLOAD_METADATA_MESSAGES } from '../../../src-shared/schemas/creator-uploads.ts'
import { createCreator, createCreatorCourse, lapsePlan } from '../../support/creator-courses.ts'
import { tusClient, uploadIdOf } from '../../support/creator-uploads.ts'
import { callerAs, createSessionToken, createUser, type TestUser } from '../../support/factories.ts'
import { serveForThisFile } from '../../support/test-server.ts'

// A small plan limit: one 110 kB video fits, two do not.
const LIMIT = 200_000
const site = serveForThisFile({ env: { CREATOR_STORAGE_LIMIT_BYTES: LIMIT } })
const MP4 = await readFile(path.resolve('public/media/promo-1.mp4'))
const OWNER_FULL =
  'This upload would pass the video storage of the course owner’s plan: ask the owner to upgrade or delete videos'

const b64 = (text: string) => Buffer.from(text).toString('base64')
const forCourse = (courseId: string) => ({
  'Upload-Metadata': `filename ${b64('lesson.mp4')},filetype ${b64('video/mp4')},courseId ${b64(courseId)}`,
})

async function cookieOf(user: TestUser) {
  const { token } = await createSessionToken(site.db, user.id)
  return `${SESSION_COOKIE}=${token}`
}

/** The owner invites the person to co-teach the course, and they accept as the mailed link lets them. */
async function coTeach(owner: TestUser, courseId: string, person: TestUser) {
  await (await callerAs(site.db, owner)).studioPublishing.invite({ courseId, email: person.email })
  const mail = await latestMailTo(site.db, person.email, COURSE_INVITE_MAIL)
  const token = mail?.text_body.match(/course-invite\?token=([a-z0-9]+)/)?.[1] as string
  await (await callerAs(site.db, person)).studioPublishing.acceptInvitation({ token })
}

/** The person uploads the whole video for the course over tus; the creation's and the last PATCH's answers. */
async function uploadFor(person: TestUser, courseId: string) {
  const client = tusClient(site.baseUrl, await cookieOf(person))
  const created = await client.create(MP4.length, 'lesson.mp4', forCourse(courseId))
  if (created.status !== 201) return { created, status: created.status, text: await created.text(), id: null }
  const location = created.headers.get('location') as string
  const last = await client.patch(location, 0, MP4)
  return { created, status: last.status, text: await last.text(), id: uploadIdOf(location), client, location }
}

const videoLesson = (courseId: string, lessonId: string, uploadId: string) => ({
  courseId,
  lessonId,
  title: 'Filmed lesson',
  isPreview: false,
  content: { type: 'upload' as const, bodyMarkdown: '', uploadId },
})

describe('a course team uploads lesson videos on the owner’s plan', () => {
  it('a co-instructor with no plan uploads for the owner’s Pro course and saves it; the bytes are the owner’s', async () => {
    const cole = await createCreator(site.db, { plan: 'pro', firstName: 'Cole' })
    const course = await createCreatorCourse(site.db, cole)
    const ben = await createCreator(site.db, { plan: null, firstName: 'Ben' })
    await coTeach(cole, course.id, ben)

    const upload = await uploadFor(ben, course.id)
    expect(upload.created.status, upload.text).toBe(201)
    expect(upload.status, upload.text).toBe(204)
    const id = upload.id as string
    const row = await site.db
      .selectFrom('creator_uploads')
      .select(['user_id', 'course_id', 'storage_owner_id', 'status'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    expect(row).toEqual({ user_id: ben.id, course_id: course.id, storage_owner_id: cole.id, status: 'stored' })
    expect(await storageUsedBytes(site.db, cole.id)).toBe(MP4.length)
    expect(await storageUsedBytes(site.db, ben.id)).toBe(0)

    // Ben reads it back and makes it the lesson's video.
    const asBen = await callerAs(site.db, ben)
    expect(await asBen.creatorUploads.get({ uploadId: id })).toMatchObject({ uploadId: id, status: 'stored' })
    const lessonId = course.lessonIds[1] as string
    const saved = await asBen.studio.updateLesson(videoLesson(course.id, lessonId, id))
    expect(saved).toMatchObject({ type: 'upload', hasVideoFile: true })

    // Cole's studio shows the bytes against his plan, and the video among his.
    const mine = await (await callerAs(site.db, cole)).creatorUploads.list()
    expect(mine.storage).toMatchObject({ usedBytes: MP4.length, hasPlan: true, planName: 'Pro' })
    expect(mine.uploads).toEqual([expect.objectContaining({ uploadId: id, attached: true, byTeam: true })])
    // Ben's own plan (none) counts nothing of it.
    expect((await asBen.creatorUploads.list()).storage).toMatchObject({ usedBytes: 0, hasPlan: false })

    // A second video for the course would pass the owner's storage: refused, in words naming the owner's plan.
    const second = await uploadFor(ben, course.id)
    expect(second.status, second.text).toBe(413)
    expect(second.text).toBe(OWNER_FULL)
  })

  it('the lesson save takes an upload made for the course by any of its editors, and none made for another', async () => {
    const cole = await createCreator(site.db, { plan: 'pro', firstName: 'Cole' })
    const course = await createCreatorCourse(site.db, cole)
    const other = await createCreatorCourse(site.db, cole)
    const ben = await createCreator(site.db, { plan: null, firstName: 'Ben' })
    await coTeach(cole, course.id, ben)
    const upload = await uploadFor(ben, course.id)
    expect(upload.status, upload.text).toBe(204)
    const asCole = await callerAs(site.db, cole)
    // Not for Cole's other course: the upload is this course's.
    await expect(
      asCole.studio.updateLesson(videoLesson(other.id, other.lessonIds[0] as string, upload.id as string)),
    ).rejects.toThrow('That upload was not found or has not finished')
    const saved = await asCole.studio.updateLesson(
      videoLesson(course.id, course.lessonIds[2] as string, upload.id as string),
    )
    expect(saved).toMatchObject({ hasVideoFile: true })
  })

  it('a co-instructor who is not a creator, and a school instructor, upload too', async () => {
    const cole = await createCreator(site.db, { plan: 'pro', firstName: 'Cole' })
    const course = await createCreatorCourse(site.db, cole)
    const dana = await createUser(site.db, { firstName: 'Dana' })
    await coTeach(cole, course.id, dana)
    const byDana = await uploadFor(dana, course.id)
    expect(byDana.created.status, byDana.text).toBe(201)
    expect(byDana.status, byDana.text).toBe(204)
    const asDana = await callerAs(site.db, dana)
    expect(await asDana.creatorUploads.get({ uploadId: byDana.id as string })).toMatchObject({ status: 'stored' })
    await asDana.studio.updateLesson(videoLesson(course.id, course.lessonIds[0] as string, byDana.id as string))
    expect(await storageUsedBytes(site.db, cole.id)).toBe(MP4.length)

    const school = await createCreator(site.db, { plan: 'pro', firstName: 'Sam' })
    const schoolCourse = await createCreatorCourse(site.db, school)
    const ivy = await createUser(site.db, { firstName: 'Ivy' })
    await (await callerAs(site.db, school)).schools.invite({ email: ivy.email, role: 'instructor' })
    const mail = await latestMailTo(site.db, ivy.email, SCHOOL_INVITE_MAIL)
    const token = mail?.text_body.match(/school-invite\?token=([a-z0-9]+)/)?.[1] as string
    await (await callerAs(site.db, ivy)).schools.acceptInvitation({ token })
    const byIvy = await uploadFor(ivy, schoolCourse.id)
    expect(byIvy.created.status, byIvy.text).toBe(201)
    expect(byIvy.status, byIvy.text).toBe(204)
    expect(await storageUsedBytes(site.db, school.id)).toBe(MP4.length)
    // A finance member edits no course: refused.
    const finn = await createUser(site.db, { firstName: 'Finn' })
    await (await callerAs(site.db, school)).schools.invite({ email: finn.email, role: 'finance' })
    const finnMail = await latestMailTo(site.db, finn.email, SCHOOL_INVITE_MAIL)
    const finnToken = finnMail?.text_body.match(/school-invite\?token=([a-z0-9]+)/)?.[1] as string
    await (await callerAs(site.db, finn)).schools.acceptInvitation({ token: finnToken })
    expect((await uploadFor(finn, schoolCourse.id)).status).toBe(403)
  })

  it('refuses anyone who may not edit the course, and a course id the metadata cannot carry', async () => {
    const cole = await createCreator(site.db, { plan: 'pro', firstName: 'Cole' })
    const course = await createCreatorCourse(site.db, cole)
    // A creator with a plan of their own, on no team of this course.
    const outsider = await createCreator(site.db, { plan: 'pro', firstName: 'Otto' })
    const byOutsider = await uploadFor(outsider, course.id)
    expect(byOutsider.status).toBe(404)
    // Someone who edits no course at all.
    const nobody = await createUser(site.db)
    expect((await uploadFor(nobody, course.id)).status).toBe(404)
    expect(
      await site.db.selectFrom('creator_uploads').select('id').where('course_id', '=', course.id).execute(),
    ).toEqual([])

    const client = tusClient(site.baseUrl, await cookieOf(cole))
    const tooLong = await client.create(MP4.length, 'lesson.mp4', forCourse('x'.repeat(121)))
    expect(tooLong.status).toBe(400)
    expect(await tooLong.text()).toBe(UPLOAD_METADATA_MESSAGES.invalid)
  })

  it('the owner’s full storage refuses the co-instructor, at the start and again at the finish', async () => {
    const cole = await createCreator(site.db, { plan: 'pro', firstName: 'Cole' })
    const course = await createCreatorCourse(site.db, cole)
    const ben = await createCreator(site.db, { plan: 'pro', firstName: 'Ben' })
    await coTeach(cole, course.id, ben)

    // Ben starts while there is room; Cole's own upload fills the plan first; Ben's finish is refused.
    const benClient = tusClient(site.baseUrl, await cookieOf(ben))
    const started = await benClient.create(MP4.length, 'lesson.mp4', forCourse(course.id))
    expect(started.status, await started.clone().text()).toBe(201)
    const byCole = await uploadFor(cole, course.id)
    expect(byCole.status, byCole.text).toBe(204)
    const finish = await benClient.patch(started.headers.get('location') as string, 0, MP4)
    expect(finish.status).toBe(413)
    expect(await finish.text()).toBe(OWNER_FULL)
    expect(await storageUsedBytes(site.db, cole.id)).toBe(MP4.length)

    // Now full: refused at the start, though Ben's own Pro plan has room.
    const again = await uploadFor(ben, course.id)
    expect(again.status).toBe(413)
    expect(again.text).toBe(OWNER_FULL)
    expect(await storageUsedBytes(site.db, ben.id)).toBe(0)

    // The owner's plan lapsed: refused, naming the owner's plan.
    await lapsePlan(site.db, cole.id)
    const lapsed = await uploadFor(ben, course.id)
    expect(lapsed.status).toBe(403)
    expect(lapsed.text).toBe(OWNER_NO_PLAN_MESSAGE)
  })
})
