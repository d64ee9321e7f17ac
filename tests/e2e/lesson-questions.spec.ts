// Questions under lessons (issue 33), end to end: the learner asks under a lesson, the instructor answers and marks
// it answered, and the learner is e-mailed (the outbox holds it once).
import { createUser } from '../support/factories.ts'
import { buyerOfCourse, lessonsOf, premiumMember } from '../support/learning.ts'
import { expect, signInAs, test } from './fixtures.ts'

const COURSE = 'modern-react-typescript'

test('a learner asks, the instructor answers and marks it answered, the learner is e-mailed', async ({
  page,
  db,
  login,
  baseURL,
}) => {
  const learner = await login({ firstName: 'Quinn', lastName: 'Asker' })
  await buyerOfCourse(db, COURSE, learner)
  const lesson = (await lessonsOf(db, COURSE)).find((l) => !l.is_preview)
  await page.goto(`/learn/${COURSE}/${lesson?.id}`)
  const questions = page.getByRole('region', { name: 'Questions' })
  await questions.getByLabel('Your question').fill('How do generics infer here?')
  await questions.getByLabel('Details (Markdown)').fill('I tried **this** first.')
  await questions.getByRole('button', { name: 'Post question' }).click()
  const item = questions.getByTestId('question').filter({ hasText: 'How do generics infer here?' })
  await expect(item).toBeVisible()
  await expect(item.locator('strong', { hasText: 'this' })).toBeVisible()

  const instructor = await createUser(db, { firstName: 'Ivy', lastName: 'Teacher' })
  await db.insertInto('course_instructors').values({ course_id: COURSE, user_id: instructor.id, role: 'co' }).execute()
  await page.context().clearCookies()
  await signInAs(page, baseURL as string, db, instructor)
  await page.reload()
  const mine = page.getByTestId('question').filter({ hasText: 'How do generics infer here?' })
  await mine.getByRole('button', { name: /0 answers/ }).click()
  await mine.getByLabel('Your answer (Markdown)').fill('TypeScript infers from the argument.')
  await mine.getByRole('button', { name: 'Post answer' }).click()
  await expect(mine.getByTestId('answer')).toContainText('TypeScript infers from the argument.')
  await mine.getByRole('button', { name: 'Mark answered' }).click()
  await expect(mine.getByText('Answered', { exact: true })).toBeVisible()

  await expect
    .poll(
      async () =>
        (
          await db
            .selectFrom('mail_outbox')
            .select('id')
            .where('to_address', '=', learner.email)
            .where('kind', '=', 'question_answered')
            .execute()
        ).length,
    )
    .toBe(1)
})

test('a question refused for posting too quickly says why and keeps its text', async ({ page, db, baseURL }) => {
  const { user } = await premiumMember(db)
  await signInAs(page, baseURL as string, db, user)
  const lesson = (await lessonsOf(db, COURSE)).find((l) => !l.is_preview)
  // Ten posts in the last minutes (the limit), made the way the page makes them.
  for (let i = 0; i < 10; i++) {
    const response = await page.request.post(`${baseURL}/trpc/questions.ask`, {
      data: { courseId: COURSE, lessonId: lesson?.id, title: `Earlier question ${i}`, body: 'Some details' },
      headers: { origin: baseURL as string },
    })
    expect(response.ok()).toBe(true)
  }
  await page.goto(`/learn/${COURSE}/${lesson?.id}`)
  const questions = page.getByRole('region', { name: 'Questions' })
  await questions.getByLabel('Your question').fill('One more question')
  await questions.getByLabel('Details (Markdown)').fill('Written with care')
  await questions.getByRole('button', { name: 'Post question' }).click()
  await expect(page.getByText('Could not post your question')).toBeVisible()
  await expect(page.getByText('You are posting too quickly. Please wait a few minutes.')).toBeVisible()
  await expect(questions.getByLabel('Your question')).toHaveValue('One more question')
  await expect(questions.getByLabel('Details (Markdown)')).toHaveValue('Written with care')
})
