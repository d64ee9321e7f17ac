// The curriculum's order as the builder changes it: a lesson or section moved one place up or down (a lesson moves
// on into the neighbouring section at either end of its own), or a lesson dropped before another or at a section's
// end. Pure functions over the outline; the server receives the whole new order (studio.arrange).

export interface OutlineLesson {
  id: string
  title: string
}
export interface OutlineSection<L extends OutlineLesson = OutlineLesson> {
  id: string
  title: string
  lessons: L[]
}

/** Where a lesson is: its section's index and its own index there; null when absent. */
export function findLesson<L extends OutlineLesson>(sections: OutlineSection<L>[], lessonId: string) {
  for (const [sectionIndex, section] of sections.entries()) {
    const lessonIndex = section.lessons.findIndex((lesson) => lesson.id === lessonId)
    if (lessonIndex >= 0) return { sectionIndex, lessonIndex }
  }
  return null
}

/** Whether the lesson can move that way (the first lesson of the first section cannot go up). */
export function canMoveLesson(sections: OutlineSection[], lessonId: string, direction: -1 | 1): boolean {
  const at = findLesson(sections, lessonId)
  if (!at) return false
  const section = sections[at.sectionIndex]!
  const target = at.lessonIndex + direction
  if (target >= 0 && target < section.lessons.length) return true
  return direction === -1 ? at.sectionIndex > 0 : at.sectionIndex < sections.length - 1
}

export function moveLesson<L extends OutlineLesson>(
  sections: OutlineSection<L>[],
  lessonId: string,
  direction: -1 | 1,
): OutlineSection<L>[] {
  const at = findLesson(sections, lessonId)
  if (!at || !canMoveLesson(sections, lessonId, direction)) return sections
  const next = sections.map((section) => ({ ...section, lessons: [...section.lessons] }))
  const section = next[at.sectionIndex]!
  const target = at.lessonIndex + direction
  const withinSection = target >= 0 && target < section.lessons.length
  const [lesson] = section.lessons.splice(at.lessonIndex, 1)
  if (withinSection) {
    section.lessons.splice(target, 0, lesson!)
  } else if (direction === -1) {
    next[at.sectionIndex - 1]!.lessons.push(lesson!)
  } else {
    next[at.sectionIndex + 1]!.lessons.unshift(lesson!)
  }
  return next
}

export function moveSection<S extends OutlineSection>(sections: S[], sectionId: string, direction: -1 | 1): S[] {
  const index = sections.findIndex((section) => section.id === sectionId)
  const target = index + direction
  if (index < 0 || target < 0 || target >= sections.length) return sections
  const next = [...sections]
  const [section] = next.splice(index, 1)
  next.splice(target, 0, section!)
  return next
}

/** Puts the lesson before `beforeLessonId` (or at the end of `sectionId` when that is null). */
export function dropLesson<L extends OutlineLesson>(
  sections: OutlineSection<L>[],
  lessonId: string,
  sectionId: string,
  beforeLessonId: string | null,
): OutlineSection<L>[] {
  const at = findLesson(sections, lessonId)
  if (!at || lessonId === beforeLessonId) return sections
  const next = sections.map((section) => ({ ...section, lessons: [...section.lessons] }))
  const [lesson] = next[at.sectionIndex]!.lessons.splice(at.lessonIndex, 1)
  const target = next.find((section) => section.id === sectionId)
  if (!target) return sections
  const index = beforeLessonId ? target.lessons.findIndex((item) => item.id === beforeLessonId) : -1
  target.lessons.splice(index < 0 ? target.lessons.length : index, 0, lesson!)
  return next
}

/** The order the server takes. */
export function toArrangement(sections: OutlineSection[]) {
  return sections.map((section) => ({ id: section.id, lessonIds: section.lessons.map((lesson) => lesson.id) }))
}
