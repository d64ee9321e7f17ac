// The demo lessons' article bodies (Markdown): a few paragraphs written from the course's own outline, so every
// lesson of every demo course has real text to read. Each body states the lesson's time (reading plus the hands-on
// exercise it sets), which is the duration the curriculum shows.
import { formatLessonDuration } from '../../src-shared/lesson-duration.ts'
import type { SeedCourse } from './data/types.ts'

interface LessonPlace {
  course: SeedCourse
  sectionTitle: string
  lessonTitle: string
  durationSeconds: number
  /** Position of the lesson in the whole course, from 0. */
  index: number
  total: number
}

const pick = <T>(items: readonly T[], index: number): T | undefined => items[index % Math.max(1, items.length)]

export function lessonArticle(place: LessonPlace): string {
  const { course, sectionTitle, lessonTitle, durationSeconds, index, total } = place
  const goal = pick(course.whatYouWillLearn, index) ?? course.title
  const nextGoal = pick(course.whatYouWillLearn, index + 1) ?? goal
  const requirement = pick(course.requirements, index)
  const readingMinutes = 3
  const practiceMinutes = Math.max(1, Math.round(durationSeconds / 60) - readingMinutes)
  return [
    `## ${lessonTitle}`,
    `*Lesson ${index + 1} of ${total} · ${sectionTitle} · about ${formatLessonDuration(durationSeconds)} ` +
      `(${readingMinutes} minutes of reading, ${practiceMinutes} ${practiceMinutes === 1 ? 'minute' : 'minutes'} of practice)*`,
    `This lesson of **${course.title}** is about ${lessonTitle.toLowerCase()}. It builds on what came before it in ` +
      `"${sectionTitle}" and moves you towards one of the course's goals: ${goal.charAt(0).toLowerCase()}${goal.slice(1)}. ` +
      'Read it through once, then work through the exercise at the end before you mark the lesson as complete.',
    `Start from the idea behind ${lessonTitle.toLowerCase()} rather than the steps. Ask what problem it solves, ` +
      'who meets that problem in practice and what it costs when it is ignored. Professionals rarely remember every ' +
      'detail; they remember the reasoning, and the details follow from it when they need them.' +
      (requirement
        ? ` If something here feels unfamiliar, revisit the prerequisite: ${requirement.toLowerCase()}.`
        : ''),
    'Next, look at a concrete case. Take an example from your own work or studies and describe it in a few sentences: ' +
      'what you started with, what you changed and what you expected to happen. Writing it down makes the gaps in ' +
      'your understanding visible, and those gaps are exactly what the rest of this lesson and the next one fill.',
    '### Exercise',
    `1. Summarise ${lessonTitle.toLowerCase()} in three sentences, as if explaining it to a colleague.\n` +
      '2. Apply it to the example you wrote down, and note one thing you would do differently now.\n' +
      `3. Keep your notes: the next lessons build on them, towards this goal: ${nextGoal.toLowerCase()}.`,
    '> Tip: short, regular sessions beat long ones. Come back tomorrow and skim your notes before you continue.',
  ].join('\n\n')
}
