// The cart's lines as every reader sees them (the cart page, coupons, checkout): the catalogue's prices (cart/) with
// each bundle line described by its courses (promotions/) and what the buyer already holds (access/), and the school
// that sells each line (creators/), which a school's own domain checks out alone (decision 0150).
import { bundleOnSale } from '../../src-shared/schemas/bundles.ts'
import { ownedCourseIds } from '../access/courses.ts'
import { type CartLine, catalogueCartLines } from '../cart/lines.ts'
import { schoolSlugsOfCourses, schoolSlugsOfOwners } from '../creators/schools.ts'
import type { DB } from '../kernel/db.ts'
import { bundleCourseRows, bundleOwners } from '../promotions/bundles.ts'

export async function listCartLines(db: DB, userId: string): Promise<CartLine[]> {
  return withSchools(db, await describeBundles(db, userId, await catalogueCartLines(db, userId)))
}

/** Each line's school: a course's owner's school, a bundle's owner's; plans and services are the marketplace's. */
async function withSchools(db: DB, lines: CartLine[]): Promise<CartLine[]> {
  const courseIds = lines.flatMap((line) => (line.kind === 'course' && line.courseId ? [line.courseId] : []))
  const bundleIds = lines.flatMap((line) => (line.bundleId ? [line.bundleId] : []))
  const [courseSchools, owners] = await Promise.all([schoolSlugsOfCourses(db, courseIds), bundleOwners(db, bundleIds)])
  const ownerSchools = await schoolSlugsOfOwners(
    db,
    [...owners.values()].filter((owner) => owner !== null),
  )
  return lines.map((line) => {
    const owner = line.bundleId ? owners.get(line.bundleId) : null
    const school =
      line.kind === 'course' && line.courseId
        ? courseSchools.get(line.courseId)
        : owner
          ? ownerSchools.get(owner)
          : undefined
    return { ...line, school: school ?? null }
  })
}

/**
 * Bundle lines (issue 32): a bundle with a course no longer on sale is left out like an unpublished course; the rest
 * name their courses the buyer already holds or also has in the cart, so the cart and checkout can say so.
 */
async function describeBundles(db: DB, userId: string, lines: CartLine[]): Promise<CartLine[]> {
  const bundleIds = lines.flatMap((line) => (line.bundleId ? [line.bundleId] : []))
  if (bundleIds.length === 0) return lines
  const coursesOf = await bundleCourseRows(db, bundleIds)
  const held = new Set(await ownedCourseIds(db, userId))
  const inCart = new Set(lines.flatMap((line) => (line.kind === 'course' && line.courseId ? [line.courseId] : [])))
  return lines.flatMap((line) => {
    if (!line.bundleId) return [line]
    const courses = coursesOf.get(line.bundleId) ?? []
    if (!bundleOnSale(courses, line)) return []
    const titles = (ids: Set<string>) => courses.filter((course) => ids.has(course.id)).map((course) => course.title)
    return [
      {
        ...line,
        detail: `Bundle of ${courses.length} courses: ${courses.map((course) => course.title).join(', ')}`,
        bundleOverlap: { held: titles(held), inCart: titles(inCart) },
      },
    ]
  })
}
