// A lesson's length as people write it ('m:ss') and as it is stored (seconds): the admin form, its schema and the
// demo seed read and write it through these, so the three agree on the format.

export const LESSON_DURATION_PATTERN = /^(\d{1,3}):([0-5]\d)$/
export const LESSON_DURATION_MESSAGE = 'Lesson duration must look like m:ss'

/** 'm:ss' → seconds; anything else is a RangeError (callers validate input with the schema first). */
export function parseLessonDuration(text: string): number {
  const match = LESSON_DURATION_PATTERN.exec(text)
  if (!match) throw new RangeError(`${LESSON_DURATION_MESSAGE}, got ${text}`)
  return Number(match[1]) * 60 + Number(match[2])
}

/** seconds → 'm:ss' */
export function formatLessonDuration(totalSeconds: number): string {
  return `${Math.floor(totalSeconds / 60)}:${String(totalSeconds % 60).padStart(2, '0')}`
}
