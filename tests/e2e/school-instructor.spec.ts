// A school's instructor who is not a creator (issue 36, decision 0057): their member page lists the school's courses,
// the studio lets them through to a course's editor (the server checks their role on every call), and what they save
// is saved; the rest of the studio still sends them to /teach.
import { createCreator, createCreatorCourse } from '../support/creator-courses.ts'
import { createUser } from '../support/factories.ts'
import { expect, signInAs, test } from './fixtures.ts'

test('an instructor on a school’s team edits its course from their member page', async ({ page, db, baseURL }) => {
  const owner = await createCreator(db, { plan: 'pro' })
  const course = await createCreatorCourse(db, owner, { status: 'draft', title: 'Pottery for Beginners' })
  const school = await db.selectFrom('schools').select('id').where('owner_id', '=', owner.id).executeTakeFirst()
  const schoolId =
    school?.id ??
    (
      await db
        .insertInto('schools')
        .values({ owner_id: owner.id, name: 'Pottery School', slug: `pottery-${Date.now().toString(36)}` })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id
  const instructor = await createUser(db, { firstName: 'Ines', lastName: 'Tructor' })
  await db
    .insertInto('school_members')
    .values({ school_id: schoolId, user_id: instructor.id, role: 'instructor' })
    .execute()

  await signInAs(page, baseURL as string, db, instructor)
  await page.goto(`/member/${schoolId}`)
  await expect(page.getByTestId('member-role')).toHaveText('Instructor')
  await page.getByRole('link', { name: 'Pottery for Beginners' }).click()
  await expect(page.getByRole('heading', { name: 'Pottery for Beginners', level: 1 })).toBeVisible()
  await page.getByLabel('Title', { exact: true }).fill('Pottery for Curious Beginners')
  await page.getByRole('button', { name: 'Save details' }).click()
  await expect(page.getByRole('heading', { name: 'Pottery for Curious Beginners', level: 1 })).toBeVisible()
  const saved = await db.selectFrom('courses').select('title').where('id', '=', course.id).executeTakeFirstOrThrow()
  expect(saved.title).toBe('Pottery for Curious Beginners')

  // Not a creator: the studio's own pages still send them to apply to teach.
  await page.goto('/studio/earnings')
  await expect(page).toHaveURL(/\/teach/)
})
