// Quiz lessons for tests (integration and e2e): a quiz lesson added to a course's first section, with its
// definition (five questions: each type, with explanations) as the quiz editor saves it.
import type { Kysely } from 'kysely'
import type { Database, QuizQuestion } from '../../db/types.ts'

export const SAMPLE_QUESTIONS: QuizQuestion[] = [
  {
    id: 'q1',
    type: 'single',
    prompt: 'Which planet is largest?',
    explanation: 'Jupiter is the largest planet.',
    options: [
      { id: 'a', text: 'Mars', correct: false },
      { id: 'b', text: 'Jupiter', correct: true },
      { id: 'c', text: 'Venus', correct: false },
    ],
  },
  {
    id: 'q2',
    type: 'multiple',
    prompt: 'Which are prime?',
    explanation: 'Two and three are prime; four is not.',
    options: [
      { id: 'a', text: 'Two', correct: true },
      { id: 'b', text: 'Three', correct: true },
      { id: 'c', text: 'Four', correct: false },
    ],
  },
  {
    id: 'q3',
    type: 'true_false',
    prompt: 'Water boils at 100 °C at sea level.',
    explanation: 'It does.',
    answer: true,
  },
  {
    id: 'q4',
    type: 'short',
    prompt: 'Capital of the state of New York?',
    explanation: 'Albany, not New York City.',
    accepted: ['Albany'],
  },
  { id: 'q5', type: 'true_false', prompt: 'The sun is a planet.', explanation: 'It is a star.', answer: false },
]

/** Adds a quiz lesson (with SAMPLE_QUESTIONS, 80 % to pass) at the end of the course's first section; its id. */
export async function addQuizLesson(
  db: Kysely<Database>,
  courseId: string,
  title = 'Check your understanding',
  questions = SAMPLE_QUESTIONS,
): Promise<string> {
  const section = await db
    .selectFrom('course_sections')
    .select('id')
    .where('course_id', '=', courseId)
    .orderBy('position')
    .executeTakeFirstOrThrow()
  const lesson = await db
    .insertInto('lessons')
    .values({ course_id: courseId, section_id: section.id, position: 1000, title, kind: 'quiz', duration_seconds: 300 })
    .returning('id')
    .executeTakeFirstOrThrow()
  await db
    .insertInto('quizzes')
    .values({ lesson_id: lesson.id, course_id: courseId, questions: JSON.stringify(questions) })
    .execute()
  return lesson.id
}
