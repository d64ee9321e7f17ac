// One 'm:ss' format for the admin form's schema, the course editing and the seed.
import { describe, expect, it } from 'vitest'
import { formatLessonDuration, parseLessonDuration } from '../../src-shared/lesson-duration.ts'
import { lessonDurationText } from '../../src-shared/schemas/admin.ts'

describe('lesson durations', () => {
  it('parses what the schema accepts and formats it back the same', () => {
    for (const text of ['0:00', '9:05', '125:59']) {
      expect(lessonDurationText.parse(text)).toBe(text)
      expect(formatLessonDuration(parseLessonDuration(text))).toBe(text)
    }
    expect(parseLessonDuration('12:30')).toBe(750)
  })

  it('refuses, in the schema and the parser alike, what is not m:ss', () => {
    for (const text of ['1:60', '12', '1:5', 'a:bc', '1234:00']) {
      expect(lessonDurationText.safeParse(text).success).toBe(false)
      expect(() => parseLessonDuration(text)).toThrow(RangeError)
    }
  })
})
