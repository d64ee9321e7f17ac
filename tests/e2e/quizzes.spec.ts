// Quizzes (issue 33) end to end on a 390 px phone: a creator turns a lesson into a quiz in the studio and writes five
// questions (each type) with an 80 % pass mark; a buyer fails it (60 %), reads which answers were wrong with their
// explanations, tries again and passes; the course completes and its certificate (the public verification page)
// shows the final grade; before any submission no answer key reached the browser; the creator sees the numbers.
import { createUser } from '../support/factories.ts'
import { buyerOfCourse } from '../support/learning.ts'
import { addQuizLesson } from '../support/quizzes.ts'
import { studioCourseOf } from '../support/studio.ts'
import { expect, signInAs, test } from './fixtures.ts'

test.use({ viewport: { width: 390, height: 844 } })

test('a creator adds a quiz; a learner fails, reads the explanations, retries, passes and gets a graded certificate', async ({
  page,
  db,
  baseURL,
  browser,
}) => {
  test.setTimeout(120_000)
  const creator = await createUser(db, { firstName: 'Quiz', lastName: 'Creator' })
  const courseId = await studioCourseOf(db, creator.id)
  await db.updateTable('courses').set({ certificate: true }).where('id', '=', courseId).execute()
  await signInAs(page, baseURL!, db, creator)

  // The creator adds a lesson and makes it a quiz.
  await page.goto(`/studio/courses/${courseId}/curriculum`)
  await page.getByLabel('New lesson in Getting started').fill('Final quiz')
  await page.getByRole('button', { name: 'Add lesson' }).click()
  await page.getByRole('button', { name: 'Edit: Final quiz' }).click()
  const dialog = page.getByRole('dialog', { name: 'Edit lesson' })
  await dialog.getByRole('radio', { name: 'Quiz' }).check()
  await dialog.getByLabel('Introduction (Markdown, optional)').fill('Five questions on what you learnt.')
  await dialog.getByLabel('Duration (m:ss)').fill('5:00')
  await page.getByRole('button', { name: 'Save lesson' }).click()
  await expect(dialog).toBeHidden()
  // Without questions the quiz could never be passed: the publish checklist names it (stop 84).
  await page.goto(`/studio/courses/${courseId}/publish`)
  const quizItem = page.getByTestId('checklist').getByRole('listitem').filter({ hasText: 'Every quiz lesson' })
  await expect(quizItem).toContainText('(missing)')
  await expect(quizItem).toContainText('These quiz lessons have no questions yet: Final quiz')
  await page.goto(`/studio/courses/${courseId}/curriculum`)
  await page.getByRole('link', { name: 'Questions: Final quiz' }).click()
  await expect(page.getByRole('heading', { name: 'Quiz: Final quiz' })).toBeVisible()

  // Settings and five questions.
  await page.getByLabel('Pass mark (%)').fill('80')
  const add = (label: string) => page.getByRole('button', { name: `Add ${label} question` }).click()
  await add('single choice')
  await page.getByLabel('Question 1', { exact: true }).fill('Which planet is largest?')
  await page.getByLabel('Question 1, option 1', { exact: true }).fill('Mars')
  await page.getByLabel('Question 1, option 2', { exact: true }).fill('Jupiter')
  await page.getByLabel('Question 1, option 2 is correct').check()
  await page.getByLabel('Question 1: explanation (shown after an attempt)').fill('Jupiter is the largest planet.')
  await add('multiple choice')
  await page.getByLabel('Question 2', { exact: true }).fill('Which are prime?')
  await page.getByRole('button', { name: 'Add option' }).nth(1).click()
  await page.getByLabel('Question 2, option 1', { exact: true }).fill('Two')
  await page.getByLabel('Question 2, option 2', { exact: true }).fill('Three')
  await page.getByLabel('Question 2, option 3', { exact: true }).fill('Four')
  await page.getByLabel('Question 2, option 2 is correct').check()
  await page.getByLabel('Question 2: explanation (shown after an attempt)').fill('Two and three are prime.')
  await add('true or false')
  await page.getByLabel('Question 3', { exact: true }).fill('Water boils at 100 °C at sea level.')
  await add('short answer')
  await page.getByLabel('Question 4', { exact: true }).fill('Capital of the state of New York?')
  await page.getByLabel('Question 4: accepted answers (one per line)').fill('Albany')
  await page.getByLabel('Question 4: explanation (shown after an attempt)').fill('Albany, not New York City.')
  await add('true or false')
  await page.getByLabel('Question 5', { exact: true }).fill('The sun is a planet.')
  await page.getByLabel('Question 5: correct answer').selectOption('false')
  await page.getByRole('button', { name: 'Save quiz' }).click()
  await expect(page.getByText('Quiz saved')).toBeVisible()
  const saved = await db
    .selectFrom('quizzes')
    .select(['pass_percent', 'questions'])
    .where('course_id', '=', courseId)
    .executeTakeFirstOrThrow()
  expect(saved.pass_percent).toBe(80)
  expect(saved.questions.map((q) => q.type)).toEqual(['single', 'multiple', 'true_false', 'short', 'true_false'])
  const quizEditor = page.url()
  await page.goto(`/studio/courses/${courseId}/publish`)
  await expect(quizItem).toContainText('(done)')
  await page.goto(quizEditor)

  // Staff approve the course (published); a learner buys it.
  await db.updateTable('courses').set({ status: 'published' }).where('id', '=', courseId).execute()
  const { user } = await buyerOfCourse(db, courseId)
  const learnerContext = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 } })
  const learner = await learnerContext.newPage()
  await signInAs(learner, baseURL!, db, user)
  const lessons = await db
    .selectFrom('lessons')
    .select(['id', 'title'])
    .where('course_id', '=', courseId)
    .orderBy('position')
    .execute()
  const welcome = lessons.find((l) => l.title === 'Welcome')!
  const quiz = lessons.find((l) => l.title === 'Final quiz')!
  await learner.goto(`/learn/${courseId}/${welcome.id}`)
  await learner.getByRole('button', { name: 'Mark as complete' }).click()
  await expect(learner.getByRole('button', { name: 'Completed' })).toBeVisible()

  // Every answer the browser got before submitting: no key, no accepted answer, no explanation.
  const seen: string[] = []
  learner.on('response', async (response) => {
    if (response.url().includes('/trpc/')) seen.push(await response.text().catch(() => ''))
  })
  await learner.goto(`/learn/${courseId}/${quiz.id}`)
  await expect(learner.getByText('Five questions on what you learnt.')).toBeVisible()
  await expect(learner.getByTestId('quiz-facts')).toContainText('Pass mark 80 %')
  await expect(learner.getByRole('button', { name: 'Mark as complete' })).toHaveCount(0)
  await learner.getByRole('button', { name: 'Start quiz' }).click()
  // The button made way for the questions: focus is on the first answer, not lost to the page.
  await expect(learner.getByRole('radio', { name: 'Mars' })).toBeFocused()
  const answer = async (allRight: boolean) => {
    await learner.getByRole('radio', { name: 'Jupiter' }).check()
    await learner.getByRole('checkbox', { name: 'Three' }).check()
    if (allRight) await learner.getByRole('checkbox', { name: 'Two' }).check()
    await learner
      .getByRole('group', { name: /Water boils/ })
      .getByRole('radio', { name: 'True' })
      .check()
    await learner.getByLabel(/Capital of the state of New York/).fill(allRight ? '  ALBANY ' : 'New York')
    await learner
      .getByRole('group', { name: /The sun is a planet/ })
      .getByRole('radio', { name: 'False' })
      .check()
  }
  await answer(false)
  for (const body of seen) {
    for (const piece of ['"correct"', '"accepted"', 'Albany', 'Jupiter is the largest planet.', '"answer"']) {
      expect(body).not.toContain(piece)
    }
  }
  await learner.getByRole('button', { name: 'Submit answers' }).click()

  // Failed at 60 %: the wrong answers with their explanations; the score, which replaced the form, has the focus.
  const result = learner.getByTestId('quiz-result')
  await expect(result.getByRole('status')).toBeFocused()
  await expect(result).toContainText('Not passed: 60 %')
  await expect(result).toContainText('3 of 5 correct; the pass mark is 80 %.')
  const wrong = learner.getByTestId('quiz-wrong')
  await expect(wrong).toHaveCount(2)
  await expect(wrong.nth(0)).toContainText('Two and three are prime.')
  await expect(wrong.nth(1)).toContainText('Your answer: New York')
  await expect(wrong.nth(1)).toContainText('Albany, not New York City.')

  // Retry and pass.
  await learner.getByRole('button', { name: 'Try again' }).click()
  await expect(learner.getByRole('radio', { name: 'Mars' })).toBeFocused()
  await answer(true)
  await learner.getByRole('button', { name: 'Submit answers' }).click()
  await expect(learner.getByTestId('quiz-result')).toContainText('Passed: 100 %')
  await expect(learner.getByTestId('quiz-best')).toContainText('Best score 100 % (passed)')
  await expect(learner.getByTestId('course-progress')).toHaveText('2 of 2 lessons complete')

  // The certificate, and its public verification page, show the grade.
  await learner.getByRole('link', { name: 'View your certificate' }).click()
  await expect(learner.getByTestId('certificate-grade')).toHaveText('Final grade: 100 %')
  const certificateUrl = learner.url()
  const visitor = await browser.newContext({ baseURL })
  const publicPage = await visitor.newPage()
  await publicPage.goto(certificateUrl)
  await expect(publicPage.getByTestId('certificate-status')).toHaveText('Verified')
  await expect(publicPage.getByTestId('certificate-grade')).toHaveText('Final grade: 100 %')
  await visitor.close()
  await learnerContext.close()

  // The creator's numbers: two attempts, half passed, per question the share correct.
  await page.reload()
  const stats = page.getByTestId('quiz-stats')
  await expect(stats).toContainText('Attempts2')
  await expect(stats).toContainText('Pass rate50 %')
  await expect(stats.getByRole('row', { name: /Which are prime\?/ })).toContainText('50 %')
  await expect(stats.getByRole('row', { name: /Which planet is largest\?/ })).toContainText('100 %')
})

test('in the quiz editor, removing or moving with the keyboard leaves focus where the change happened', async ({
  page,
  db,
  baseURL,
}) => {
  const creator = await createUser(db, { firstName: 'Quiz', lastName: 'Keys' })
  const courseId = await studioCourseOf(db, creator.id)
  const lessonId = await addQuizLesson(db, courseId)
  await signInAs(page, baseURL!, db, creator)
  await page.goto(`/studio/courses/${courseId}/quizzes/${lessonId}`)
  const press = async (name: string) => {
    await page.getByRole('button', { name, exact: true }).first().focus()
    await page.keyboard.press('Enter')
  }

  // An option: the one that took its place takes the focus.
  await press('Remove option 1 of question 1')
  await expect(page.getByLabel('Question 1, option 1', { exact: true })).toBeFocused()
  await expect(page.getByLabel('Question 1, option 1', { exact: true })).toHaveValue('Jupiter')

  // Each move button says which question it moves (a screen reader's list of buttons is not five "Move up"s); a
  // question moved down keeps the focus on its Move down, now named by its new number.
  const moves = page.locator('[data-move]')
  const names = await moves.evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label') ?? b.textContent))
  expect(new Set(names).size).toBe(names.length)
  await press('Move down: question 1')
  await expect(page.getByLabel('Question 2', { exact: true })).toHaveValue('Which planet is largest?')
  const focused = page.locator(':focus')
  await expect(focused).toHaveText('Move down')
  await expect(focused).toHaveAccessibleName('Move down: question 2')
  await expect(page.locator('li', { has: focused }).getByLabel('Question 2', { exact: true })).toBeVisible()

  // Moved to the bottom, it has no Move down: its Move up takes the focus.
  await press('Move down: question 4')
  await expect(page.getByLabel('Question 5', { exact: true })).toHaveValue('Capital of the state of New York?')
  await expect(focused).toHaveText('Move up')
  await expect(focused).toHaveAccessibleName('Move up: question 5')

  // The last question removed: the one before it takes the focus.
  await press('Remove question 5')
  await expect(page.getByLabel('Question 4: type')).toBeFocused()
  await page.keyboard.press('Tab')
  await expect(page.getByLabel('Question 4', { exact: true })).toBeFocused()
})
