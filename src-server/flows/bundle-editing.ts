// Making and changing bundles (issue 32): a creator on Pro or Enterprise bundles their own published courses; staff
// (editor and up) bundle any published courses. The price is checked here, in minor units: above zero, in the
// courses' one currency, and below their list total (a bundle that saves nothing is refused).
import { toMinorUnits } from '../../src-shared/money.ts'
import { BUNDLE_MESSAGES, type BundleInput } from '../../src-shared/schemas/bundles.ts'
import { type Actor, record } from '../audit/repository.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import {
  type BundleValues,
  coursesForBundle,
  deleteUnsoldBundle,
  findBundleOwner,
  insertBundle,
  listBundles,
  updateBundle,
} from '../promotions/bundles.ts'
import { ownerPlanIncludesPromotions } from './creator-standing.ts'

/** Who is editing: a creator (their own courses, their own bundles) or staff (any). */
export type BundleEditor = { kind: 'creator'; userId: string } | { kind: 'staff'; actor: Actor }

// A refusal names its field, so the editor shows it under the courses or the price (as zod's own messages are).
const COURSES = { field: 'courseIds' }
const PRICE = { field: 'price' }

async function checkedValues(db: DB, editor: BundleEditor, input: BundleInput): Promise<BundleValues> {
  const ids = [...new Set(input.courseIds)]
  if (ids.length < 2) throw new DomainError('invalid', BUNDLE_MESSAGES.tooFewCourses, COURSES)
  const courses = await coursesForBundle(db, ids)
  if (courses.length !== ids.length) {
    throw new DomainError(
      'invalid',
      editor.kind === 'creator' ? BUNDLE_MESSAGES.notYourCourse : 'Course not found',
      COURSES,
    )
  }
  if (editor.kind === 'creator' && courses.some((course) => course.owner_id !== editor.userId)) {
    throw new DomainError('forbidden', BUNDLE_MESSAGES.notYourCourse, COURSES)
  }
  if (courses.some((course) => course.status !== 'published')) {
    throw new DomainError('invalid', BUNDLE_MESSAGES.unpublished, COURSES)
  }
  const currencies = new Set(courses.map((course) => course.currency))
  if (currencies.size !== 1) throw new DomainError('invalid', BUNDLE_MESSAGES.mixedCurrency, COURSES)
  if (!currencies.has(input.currency)) throw new DomainError('invalid', BUNDLE_MESSAGES.currency, { field: 'currency' })
  let priceMinor: number
  try {
    priceMinor = toMinorUnits(input.price)
  } catch {
    throw new DomainError('invalid', BUNDLE_MESSAGES.price, PRICE)
  }
  if (!Number.isSafeInteger(priceMinor) || priceMinor <= 0)
    throw new DomainError('invalid', BUNDLE_MESSAGES.price, PRICE)
  const listTotal = courses.reduce((sum, course) => sum + course.price_minor, 0)
  if (priceMinor >= listTotal) throw new DomainError('invalid', BUNDLE_MESSAGES.notCheaper, PRICE)
  return {
    slug: input.slug,
    title: input.title,
    description: input.description,
    currency: input.currency,
    priceMinor,
    published: input.published,
    courseIds: ids,
  }
}

async function assertPlanAllowsBundles(db: DB, editor: BundleEditor) {
  if (editor.kind !== 'creator') return
  if (!(await ownerPlanIncludesPromotions(db, editor.userId)))
    throw new DomainError('precondition', BUNDLE_MESSAGES.planNeeded)
}

/** The bundle, if this editor may change it (another creator's bundle is not found). */
async function assertEditable(db: DB, editor: BundleEditor, bundleId: string) {
  const bundle = await findBundleOwner(db, bundleId)
  if (!bundle || (editor.kind === 'creator' && bundle.owner_id !== editor.userId)) {
    throw new DomainError('not_found', BUNDLE_MESSAGES.notFound)
  }
  return bundle
}

export async function createBundle(db: DB, editor: BundleEditor, input: BundleInput) {
  await assertPlanAllowsBundles(db, editor)
  const values = await checkedValues(db, editor, input)
  return db.transaction().execute(async (trx) => {
    const owner = editor.kind === 'creator' ? editor.userId : null
    const actorId = editor.kind === 'creator' ? editor.userId : editor.actor.id
    const created = await insertBundle(trx, owner, actorId, values)
    if (editor.kind === 'staff') {
      await record(trx, editor.actor, 'bundle.create', { type: 'bundle', id: created.id, after: values })
    }
    return created
  })
}

export async function saveBundle(db: DB, editor: BundleEditor, bundleId: string, input: BundleInput) {
  await assertEditable(db, editor, bundleId)
  await assertPlanAllowsBundles(db, editor)
  const values = await checkedValues(db, editor, input)
  await db.transaction().execute(async (trx) => {
    await updateBundle(trx, bundleId, values)
    if (editor.kind === 'staff') {
      await record(trx, editor.actor, 'bundle.update', { type: 'bundle', id: bundleId, after: values })
    }
  })
  return { id: bundleId }
}

/** Only a bundle nobody has bought is deleted: a sold one holds its buyers' lines together for a refund. */
export async function removeBundle(db: DB, editor: BundleEditor, bundleId: string) {
  await assertEditable(db, editor, bundleId)
  await db.transaction().execute(async (trx) => {
    if (!(await deleteUnsoldBundle(trx, bundleId))) throw new DomainError('conflict', BUNDLE_MESSAGES.sold)
    if (editor.kind === 'staff') await record(trx, editor.actor, 'bundle.delete', { type: 'bundle', id: bundleId })
  })
  return { id: bundleId }
}

export function editorBundles(db: DB, editor: BundleEditor) {
  return listBundles(db, editor.kind === 'creator' ? editor.userId : undefined)
}
