// The course form's state (text as typed) and its conversions from a stored course and to the server input.

import type { RouterOutputs } from '#client/lib/types.ts'
import type { CourseInput } from '#shared/schemas/admin.ts'

export type AdminCourse = RouterOutputs['admin']['courses']['list']['items'][number]
export interface LessonState {
  /** Set for a stored lesson: sent back so the edit keeps its id (and learners' progress). */
  id?: string
  title: string
  duration: string
  isPreview: boolean
  /** The lesson plays an uploaded video: its duration is the file's, read by the server, not typed. */
  durationFromVideo?: boolean
}
export interface SectionState {
  id?: string
  title: string
  lessons: LessonState[]
}

export interface CourseFormState {
  title: string
  description: string
  price: string
  priceGbp: string
  originalPrice: string
  categoryId: string
  instructorName: string
  imageUrl: string
  level: 'beginner' | 'intermediate' | 'advanced'
  status: 'draft' | 'published'
  featured: boolean
  language: string
  certificate: boolean
  includedInPremium: boolean
  lessons: string
  durationMinutes: string
  whatYouWillLearn: string
  requirements: string
  curriculum: SectionState[]
}

/** Spec §4: new courses start as draft, beginner, price 0, no lessons, not featured. */
export function emptyCourseForm(categoryId = ''): CourseFormState {
  return {
    title: '',
    description: '',
    price: '0',
    priceGbp: '',
    originalPrice: '',
    categoryId,
    instructorName: '',
    imageUrl: '',
    level: 'beginner',
    status: 'draft',
    featured: false,
    language: 'English',
    certificate: true,
    includedInPremium: true,
    lessons: '0',
    durationMinutes: '0',
    whatYouWillLearn: '',
    requirements: '',
    curriculum: [],
  }
}

export function formFromCourse(course: AdminCourse): CourseFormState {
  return {
    title: course.title,
    description: course.description,
    price: course.price,
    priceGbp: course.priceGbp,
    originalPrice: course.originalPrice,
    categoryId: course.categoryId,
    instructorName: course.instructorName,
    imageUrl: course.imageUrl === '/placeholder.svg' ? '' : course.imageUrl,
    level: course.level as CourseFormState['level'],
    status: course.status === 'published' ? 'published' : 'draft',
    featured: course.featured,
    language: course.language,
    certificate: course.certificate,
    includedInPremium: course.includedInPremium,
    lessons: String(course.lessons),
    durationMinutes: String(course.durationMinutes),
    whatYouWillLearn: course.whatYouWillLearn.join('\n'),
    requirements: course.requirements.join('\n'),
    curriculum: course.curriculum,
  }
}

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)

/** Sent as typed: the server validates (and refuses a price that is not a number). */
export function inputFromForm(form: CourseFormState): CourseInput {
  return {
    ...form,
    lessons: form.lessons.trim() === '' ? 0 : Number(form.lessons),
    durationMinutes: form.durationMinutes.trim() === '' ? 0 : Number(form.durationMinutes),
    whatYouWillLearn: lines(form.whatYouWillLearn),
    requirements: lines(form.requirements),
  }
}

export function curriculumLessonCount(curriculum: SectionState[]) {
  return curriculum.reduce((sum, section) => sum + section.lessons.length, 0)
}
