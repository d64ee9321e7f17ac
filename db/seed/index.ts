// Idempotent demo seed: inserts what is missing, keyed by natural ids, and never overwrites staff edits.
import type { Kysely } from 'kysely'
import { toMinorUnits } from '../../src-shared/money.ts'
import type { Database } from '../types.ts'
import { seedCourseMinutes, seedCurricula } from './curriculum.ts'
import { categories } from './data/categories.ts'
import { courses } from './data/courses.ts'
import { promoVideos, testimonials } from './data/home.ts'
import { instructors } from './data/instructors.ts'
import { intakeForms } from './data/intake-forms.ts'
import { comparisonFeatures, plans } from './data/plans.ts'
import { services } from './data/services.ts'
import { courseRow } from './factories.ts'
import { seedReviews } from './reviews.ts'

const json = (value: unknown) => JSON.stringify(value)
/** The few demo courses sold only on their own (Premium includes the rest). */
const PREMIUM_EXCLUDED = new Set([
  'design-systems-advanced',
  'financial-modeling-excel',
  'strategy-frameworks-consultants',
])

/** The business days a package's processing time promises at most: '1-3 business days' → 3 (5 when unstated). */
export function processingDays(processingTime: string): number {
  const match = /(\d+)\s*business day/.exec(processingTime)
  return match ? Number(match[1]) : 5
}
const DAY_MS = 24 * 60 * 60 * 1000

/** A house instructor's profile address (/instructors/{slug}): the name in lower case, words joined by '-'. */
function instructorSlug(name: string) {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'instructor'
  )
}

export async function seedDatabase(db: Kysely<Database>, now = new Date()): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('categories')
      .values(categories.map((c, position) => ({ ...c, position })))
      .onConflict((oc) => oc.column('slug').doNothing())
      .execute()
    const categoryRows = await trx.selectFrom('categories').select(['id', 'slug']).execute()
    const categoryId = new Map(categoryRows.map((row) => [row.slug, row.id]))

    const existingInstructors = await trx.selectFrom('instructors').select(['id', 'name']).execute()
    const instructorId = new Map(existingInstructors.map((row) => [row.name, row.id]))
    for (const instructor of instructors) {
      if (instructorId.has(instructor.name)) continue
      const row = await trx
        .insertInto('instructors')
        .values({
          slug: instructorSlug(instructor.name),
          name: instructor.name,
          title: instructor.title,
          bio: instructor.bio,
          image_url: instructor.imageUrl,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      instructorId.set(instructor.name, row.id)
    }
    const instructorByKey = new Map(instructors.map((i) => [i.key, i]))

    await trx
      .insertInto('courses')
      .values(
        courses.map((course) => {
          const instructor = instructorByKey.get(course.instructor)
          const category = categoryId.get(course.category)
          if (!instructor || !category) throw new Error(`Seed course ${course.id} refers to unknown data`)
          const createdAt = new Date(now.getTime() - course.createdDaysAgo * DAY_MS)
          const status = course.status ?? 'published'
          return courseRow({
            id: course.id,
            title: course.title,
            description: course.description,
            category_id: category,
            instructor_id: instructorId.get(instructor.name) ?? null,
            instructor_name: instructor.name,
            image_url: course.imageUrl,
            price_minor: toMinorUnits(course.price),
            original_price_minor: course.originalPrice ? toMinorUnits(course.originalPrice) : null,
            rating: course.rating,
            review_count: course.reviewCount,
            students_count: course.studentsCount,
            level: course.level,
            duration_minutes: seedCourseMinutes(course),
            lessons_count: course.curriculum.reduce((sum, section) => sum + section.lessons.length, 0),
            language: course.language ?? 'English',
            certificate: course.certificate ?? true,
            included_in_premium: !PREMIUM_EXCLUDED.has(course.id),
            what_you_will_learn: json(course.whatYouWillLearn),
            requirements: json(course.requirements),
            status,
            featured: course.featured ?? false,
            published_at: status === 'published' ? createdAt : null,
            created_at: createdAt,
            updated_at: createdAt,
          })
        }),
      )
      .onConflict((oc) => oc.column('id').doNothing())
      .execute()
    await seedCurricula(trx, courses)

    for (const [position, service] of services.entries()) {
      const category = categoryId.get(service.category)
      if (!category) throw new Error(`Seed service ${service.id} refers to unknown category ${service.category}`)
      await trx
        .insertInto('services')
        .values({
          id: service.id,
          title: service.title,
          description: service.description,
          category_id: category,
          image_url: service.imageUrl,
          featured: service.featured,
          what_you_get: json(service.whatYouGet),
          requirements: json(service.requirements),
          process_steps: json(service.processSteps),
          faqs: json(service.faqs),
          paypal: json(service.paypal ?? null),
          intake_form: json(intakeForms[service.id] ?? null),
          position,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute()
      // A service seeded before intake forms existed gets its form, without overwriting one an editor wrote.
      await trx
        .updateTable('services')
        .set({ intake_form: json(intakeForms[service.id] ?? null) })
        .where('id', '=', service.id)
        .where('intake_form', 'is', null)
        .execute()
      await trx
        .insertInto('service_packages')
        .values(
          service.packages.map((pkg, index) => ({
            service_id: service.id,
            position: index,
            name: pkg.name,
            price_minor: toMinorUnits(pkg.price),
            currency: pkg.currency,
            description: pkg.description,
            features: json(pkg.features),
            processing_time: pkg.processingTime,
            processing_days: processingDays(pkg.processingTime),
            revisions: pkg.revisions,
            billing_interval: pkg.billingInterval ?? null,
          })),
        )
        .onConflict((oc) => oc.columns(['service_id', 'name']).doNothing())
        .execute()
    }

    await trx
      .insertInto('plans')
      .values(
        plans.map((plan, position) => ({
          id: plan.id,
          name: plan.name,
          description: plan.description,
          monthly_price_minor: toMinorUnits(plan.monthlyPrice),
          annual_price_minor: toMinorUnits(plan.annualPrice),
          features: json(plan.features),
          is_popular: plan.isPopular,
          badge: plan.badge ?? null,
          position,
        })),
      )
      .onConflict((oc) => oc.column('id').doNothing())
      .execute()
    await trx
      .insertInto('plan_comparison_features')
      .values(
        comparisonFeatures.map((feature, position) => ({
          position,
          name: feature.name,
          starter: json(feature.starter),
          professional: json(feature.professional),
          enterprise: json(feature.enterprise),
        })),
      )
      .onConflict((oc) => oc.column('name').doNothing())
      .execute()
    await trx
      .insertInto('testimonials')
      .values(
        testimonials.map((t, position) => ({
          position,
          content: t.content,
          author: t.author,
          role: t.role,
          image_url: t.imageUrl,
        })),
      )
      .onConflict((oc) => oc.column('author').doNothing())
      .execute()
    await trx
      .insertInto('promo_videos')
      .values(
        promoVideos.map((v, position) => ({
          position,
          title: v.title,
          description: v.description,
          poster_url: v.posterUrl,
          video_url: v.videoUrl,
        })),
      )
      .onConflict((oc) => oc.column('title').doNothing())
      .execute()
    await seedReviews(trx, courses, now)
  })
}

/** Seeds only a database that has no catalogue yet (start-up default). Returns whether it seeded. */
export async function seedIfEmpty(db: Kysely<Database>): Promise<boolean> {
  const row = await db
    .selectFrom('categories')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst()
  if (Number(row?.n ?? 0) > 0) return false
  await seedDatabase(db)
  return true
}
