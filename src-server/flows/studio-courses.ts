// The studio's course use cases: the creator's standing against their plan, their courses, one course to edit, a new
// course, and a save of its details. Every course is reached through assertCourseRole: a course the creator may not
// edit is not found. Price changes need the owner; on a course on sale the reviewed fields become a draft revision.
import type { z } from 'zod'
import {
  type CoursePrices,
  coursePrices,
  normalPrices,
  priceColumns,
  samePrices,
} from '../../src-shared/course-prices.ts'
import { CREATOR_PLAN_LIMITS, type CreatorLimitOverrides, type CreatorPlanId } from '../../src-shared/creator-plans.ts'
import { formatMoney, toMinorUnits } from '../../src-shared/money.ts'
import { BUNDLE_MESSAGES, bundleOnSale, coursesTotalMinor } from '../../src-shared/schemas/bundles.ts'
import type {
  studioCourseImageInput,
  studioCourseInput,
  studioCreateInput,
  studioListInput,
} from '../../src-shared/schemas/studio.ts'
import { assertCategory, freeCourseId } from '../catalog/course-editing.ts'
import { assertCourseImage } from '../catalog/course-image.ts'
import {
  findCourseDraft,
  findStudioCourse,
  insertStudioCourse,
  isOnSale,
  listStudioCourses,
  REVIEWED_KEYS,
  type ReviewedFields,
  saveCourseDraft,
  writeCourseImage,
  writeStudioCourse,
} from '../catalog/studio-courses.ts'
import { readStudioCurriculum } from '../catalog/studio-curriculum.ts'
import { addCourseOwner, assertCourseRole, countOwnedCourses } from '../creators/course-team.ts'
import type { Creator } from '../creators/repository.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { ownerBundlesHolding } from '../promotions/bundles.ts'
import type { FileStorage } from '../storage/storage.ts'
import { creatorStanding } from './creator-standing.ts'

const PLAN_ORDER: CreatorPlanId[] = ['basic', 'pro', 'enterprise']

/**
 * A lower price must not bring one of the owner's published bundles holding the course to its courses' total or
 * above: the creator is told to lower the bundle first, and nothing is saved. (A bundle of staff's, which the creator
 * cannot change, goes off sale by itself when the price goes live: shared/schemas/bundles.ts brokenSaleRule.)
 */
async function assertBundlesStillCheaper(
  trx: DB,
  ownerId: string,
  course: { id: string; currency: string },
  prices: CoursePrices,
) {
  const repriced = priceColumns(prices, course.currency)
  for (const bundle of await ownerBundlesHolding(trx, ownerId, course.id)) {
    const sale = { currency: bundle.currency, priceMinor: bundle.price_minor }
    const after = bundle.courses.map((row) => (row.id === course.id ? { ...row, ...repriced } : row))
    const total = coursesTotalMinor(after, bundle.currency)
    if (!bundleOnSale(bundle.courses, sale) || total > bundle.price_minor) continue
    const money = (minor: number) => formatMoney(minor, bundle.currency)
    throw new DomainError('invalid', BUNDLE_MESSAGES.undercut(bundle.title, money(bundle.price_minor), money(total)), {
      field: bundle.currency === 'GBP' ? 'priceGbp' : 'priceUsd',
    })
  }
}

/** The plan and its counts; without a live plan, the smallest plan that would hold what the creator has built. */
export async function studioStanding(db: DB, userId: string, overrides?: CreatorLimitOverrides) {
  const standing = await creatorStanding(db, userId, overrides)
  let suggestedPlanId: CreatorPlanId | null = null
  if (!standing.limits) {
    const courses = Math.max(1, await countOwnedCourses(db, userId))
    suggestedPlanId =
      PLAN_ORDER.find((id) => {
        const limits = { ...CREATOR_PLAN_LIMITS[id], ...overrides?.[id] }
        return (
          (limits.publishedCourses === null || limits.publishedCourses >= courses) &&
          (limits.storageBytes === null || limits.storageBytes >= standing.storageUsedBytes)
        )
      }) ?? 'enterprise'
  }
  return { ...standing, suggestedPlanId }
}

export async function studioCourses(db: DB, userId: string, filter: z.output<typeof studioListInput>) {
  return listStudioCourses(db, userId, filter)
}

/** One course for the editor: its fields as on sale, the pending revision, and its curriculum. */
export async function studioCourse(db: DB, userId: string, courseId: string) {
  const role = await assertCourseRole(db, userId, courseId)
  const [row, pending, curriculum] = await Promise.all([
    findStudioCourse(db, courseId),
    findCourseDraft(db, courseId),
    readStudioCurriculum(db, courseId),
  ])
  return {
    id: row.id,
    role,
    status: row.status,
    onSale: isOnSale(row.status),
    title: row.title,
    subtitle: row.subtitle,
    description: row.description,
    categoryId: row.category_id,
    level: row.level,
    language: row.language,
    whatYouWillLearn: row.what_you_will_learn,
    requirements: row.requirements,
    imageUrl: row.image_url,
    priceMinor: row.price_minor,
    currency: row.currency,
    /** What a buyer pays in each currency (null: not sold in it). */
    prices: coursePrices(row),
    certificate: row.certificate,
    lessons: row.lessons_count,
    durationMinutes: row.duration_minutes,
    updatedAt: row.updated_at.toISOString(),
    /** Reviewed fields waiting for staff approval (only those that differ from the course on sale). */
    pending,
    curriculum,
  }
}

export async function createStudioCourse(db: DB, creator: Creator, input: z.output<typeof studioCreateInput>) {
  await assertCategory(db, input.categoryId)
  const id = await freeCourseId(db, input.title)
  await db.transaction().execute(async (trx) => {
    await insertStudioCourse(trx, {
      id,
      title: input.title,
      categoryId: input.categoryId,
      ownerId: creator.userId,
      instructorId: creator.instructorId,
    })
    await addCourseOwner(trx, id, creator.userId)
  })
  return { id }
}

type CourseSave = z.output<typeof studioCourseInput>

export async function saveStudioCourse(
  db: DB,
  userId: string,
  input: CourseSave,
  images: Pick<FileStorage, 'keyFromUrl'>,
) {
  await assertCourseRole(db, userId, input.courseId)
  await assertCategory(db, input.categoryId)
  const prices = normalPrices({ USD: toMinorUnits(input.priceUsd), GBP: toMinorUnits(input.priceGbp) })
  const wanted: ReviewedFields = {
    title: input.title,
    priceUsdMinor: prices.USD,
    priceGbpMinor: prices.GBP,
    description: input.description,
  }
  await db.transaction().execute(async (trx) => {
    const row = await findStudioCourse(trx, input.courseId, true)
    assertCourseImage(input.imageUrl, images, row.image_url)
    const draft = await findCourseDraft(trx, input.courseId)
    // The prices the creator sees are the pending ones when there are: only a different price needs the owner.
    const livePrices = coursePrices(row)
    const shown = {
      USD: draft.priceUsdMinor !== undefined ? draft.priceUsdMinor : livePrices.USD,
      GBP: draft.priceGbpMinor !== undefined ? draft.priceGbpMinor : livePrices.GBP,
    }
    if (!samePrices(prices, shown)) {
      await assertCourseRole(trx, userId, input.courseId, 'owner')
      await assertBundlesStillCheaper(trx, userId, { id: input.courseId, currency: row.currency }, prices)
    }
    const immediate = {
      subtitle: input.subtitle,
      categoryId: input.categoryId,
      level: input.level,
      language: input.language,
      whatYouWillLearn: input.whatYouWillLearn,
      requirements: input.requirements,
      imageUrl: input.imageUrl,
      certificate: input.certificate,
    }
    if (!isOnSale(row.status)) {
      await writeStudioCourse(trx, input.courseId, immediate, { ...wanted, listCurrency: row.currency })
      return
    }
    const live: ReviewedFields = {
      title: row.title,
      priceUsdMinor: livePrices.USD,
      priceGbpMinor: livePrices.GBP,
      description: row.description,
    }
    const revision: Partial<ReviewedFields> = {}
    for (const key of REVIEWED_KEYS) {
      if (wanted[key] !== live[key]) Object.assign(revision, { [key]: wanted[key] })
    }
    await writeStudioCourse(trx, input.courseId, immediate, null)
    await saveCourseDraft(trx, input.courseId, revision)
  })
  return studioCourse(db, userId, input.courseId)
}

/**
 * Keeps a newly uploaded course image at once, as the upload's "Image uploaded successfully!" says (the rest of the
 * details form waits for its Save). Any editor of the course may, as with Save details; the image is checked as there.
 */
export async function saveStudioCourseImage(
  db: DB,
  userId: string,
  input: z.output<typeof studioCourseImageInput>,
  images: Pick<FileStorage, 'keyFromUrl'>,
) {
  await assertCourseRole(db, userId, input.courseId)
  await db.transaction().execute(async (trx) => {
    const row = await findStudioCourse(trx, input.courseId, true)
    assertCourseImage(input.imageUrl, images, row.image_url)
    await writeCourseImage(trx, input.courseId, input.imageUrl)
  })
  return studioCourse(db, userId, input.courseId)
}
