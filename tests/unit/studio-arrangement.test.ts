// The curriculum builder's moves: up and down within a section and across its ends, sections, and drops.
import { describe, expect, it } from 'vitest'
import {
  canMoveLesson,
  dropLesson,
  moveLesson,
  moveSection,
  toArrangement,
} from '../../src-client/components/studio/arrangement.ts'

const outline = () => [
  {
    id: 's1',
    title: 'One',
    lessons: [
      { id: 'a', title: 'A' },
      { id: 'b', title: 'B' },
    ],
  },
  { id: 's2', title: 'Two', lessons: [] },
  { id: 's3', title: 'Three', lessons: [{ id: 'c', title: 'C' }] },
]
const ids = (sections: ReturnType<typeof outline>) =>
  toArrangement(sections).map((s) => `${s.id}:${s.lessonIds.join('')}`)

describe('curriculum arrangement', () => {
  it('moves a lesson within its section and on into the neighbouring section at either end', () => {
    expect(ids(moveLesson(outline(), 'b', -1))).toEqual(['s1:ba', 's2:', 's3:c'])
    expect(ids(moveLesson(outline(), 'a', 1))).toEqual(['s1:ba', 's2:', 's3:c'])
    expect(ids(moveLesson(outline(), 'b', 1))).toEqual(['s1:a', 's2:b', 's3:c'])
    expect(ids(moveLesson(outline(), 'c', -1))).toEqual(['s1:ab', 's2:c', 's3:'])
  })

  it('does not move past the first or last place', () => {
    expect(canMoveLesson(outline(), 'a', -1)).toBe(false)
    expect(canMoveLesson(outline(), 'c', 1)).toBe(false)
    expect(ids(moveLesson(outline(), 'a', -1))).toEqual(['s1:ab', 's2:', 's3:c'])
    expect(canMoveLesson(outline(), 'b', 1)).toBe(true)
  })

  it('moves sections and drops lessons before another or at a section’s end', () => {
    expect(ids(moveSection(outline(), 's3', -1))).toEqual(['s1:ab', 's3:c', 's2:'])
    expect(ids(moveSection(outline(), 's1', -1))).toEqual(['s1:ab', 's2:', 's3:c'])
    expect(ids(dropLesson(outline(), 'c', 's1', 'a'))).toEqual(['s1:cab', 's2:', 's3:'])
    expect(ids(dropLesson(outline(), 'a', 's2', null))).toEqual(['s1:b', 's2:a', 's3:c'])
    expect(ids(dropLesson(outline(), 'a', 's1', null))).toEqual(['s1:ba', 's2:', 's3:c'])
  })
})
