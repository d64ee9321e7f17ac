// Rows for users and courses with the defaults a new one gets: the demo seed, the tests' factories and the
// benchmarks all build them here, so a new required column is filled in one place. Imports no app code (db/ sits
// below src-server): a caller that wants a password passes its hash.
import type { Insertable, Kysely } from 'kysely'
import type { CoursesTable, Database, UsersTable } from '../types.ts'

export type NewCourse = Pick<Insertable<CoursesTable>, 'id' | 'title' | 'category_id'> &
  Partial<Insertable<CoursesTable>>

/** A courses row: published (the column's default), by 'SkillForge Instructor', at 10.00, unless the caller says otherwise. */
export function courseRow(course: NewCourse): Insertable<CoursesTable> {
  return {
    instructor_name: 'SkillForge Instructor',
    price_minor: 1000,
    what_you_will_learn: '[]',
    requirements: '[]',
    ...course,
  }
}

export function insertCourse(db: Kysely<Database>, course: NewCourse) {
  return db.insertInto('courses').values(courseRow(course)).returning(['id', 'title']).executeTakeFirstOrThrow()
}

/** Inserts a user (verified unless told otherwise) and returns the columns a session user is made of. */
export function insertUser(db: Kysely<Database>, user: Insertable<UsersTable>) {
  return db
    .insertInto('users')
    .values({ email_verified: true, ...user })
    .returning(['id', 'email', 'role', 'first_name', 'last_name', 'avatar_url'])
    .executeTakeFirstOrThrow()
}
