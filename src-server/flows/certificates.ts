// The public certificate page's data: who completed what, when, and whether it still stands. A certificate earned
// on a bought course shows "Revoked" once that purchase's access is revoked (a refund); one earned through Premium
// stands after the subscription ends (the learner did complete the course while it was theirs), but shows "Revoked"
// once the money of the Premium period they completed it in is given back (a refund, a lost dispute). Either way it
// stays verified while the learner holds the course another way now (they bought it, or a Premium opens it).
// Decisions 0090 and 0110.
import { ownsCourse, premiumGrantsAt } from '../access/courses.ts'
import { findCourseForLearning } from '../catalog/repository-lessons.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { isUuid } from '../kernel/uuid.ts'
import { findCertificate } from '../learning/repository.ts'
import { periodMoneyAt } from '../orders/subscription-invoices.ts'
import { opensThroughPremium } from './lesson-access.ts'
import { brandOfCourse } from './school-domain.ts'

type CertificateRow = NonNullable<Awaited<ReturnType<typeof findCertificate>>>

async function isRevoked(db: DB, row: CertificateRow): Promise<boolean> {
  if (row.access_source === 'staff') return false
  // Held now, by a course grant or through Premium: verified, whichever way the course was completed.
  if (await ownsCourse(db, row.user_id, row.course_id)) return false
  const course = await findCourseForLearning(db, row.course_id)
  if (course && (await opensThroughPremium(db, { id: row.user_id }, course))) return false
  if (row.access_source === 'purchase') return true
  return premiumTakenBackAt(db, row.user_id, new Date(row.completed_at))
}

/**
 * Whether the Premium through which the user completed a course at `at` has been taken back: for each Premium grant
 * they held then, the money of the period that covered `at` came back in full — a refund of a later month leaves
 * the months paid before it standing, and a free trial had no money to give back. A grant with no recorded period (a
 * gift, a plan paid by bank transfer) is taken back when it was revoked for a refund or a dispute. False when no
 * Premium grant was in force then.
 */
export async function premiumTakenBackAt(db: DB, userId: string, at: Date): Promise<boolean> {
  const grants = await premiumGrantsAt(db, userId, at)
  if (grants.length === 0) return false
  for (const grant of grants) {
    const period = grant.subscription_id
      ? await periodMoneyAt(db, grant.subscription_id, at, grant.order_item_id)
      : undefined
    const takenBack = period
      ? period === 'taken_back'
      : grant.revoked_reason === 'refund' || grant.revoked_reason === 'dispute'
    if (!takenBack) return false
  }
  return true
}

export async function certificateView(db: DB, id: string, publicUrl: string) {
  const row = isUuid(id) ? await findCertificate(db, id) : undefined
  if (!row) throw new DomainError('not_found', 'Certificate not found')
  const revoked = await isRevoked(db, row)
  const url = `${publicUrl}/certificates/${row.id}`
  // A white-labelled school's certificates carry its name and colour instead of SkillForge's (decision 0063).
  const brand = await brandOfCourse(db, row.course_id)
  const issuer = brand ? { name: brand.displayName, color: brand.brandColor } : null
  const linkedIn = new URL('https://www.linkedin.com/profile/add')
  linkedIn.searchParams.set('startTask', 'CERTIFICATION_NAME')
  linkedIn.searchParams.set('name', row.course_title)
  linkedIn.searchParams.set('organizationName', issuer?.name ?? 'SkillForge')
  linkedIn.searchParams.set('issueYear', String(row.issued_at.getUTCFullYear()))
  linkedIn.searchParams.set('issueMonth', String(row.issued_at.getUTCMonth() + 1))
  linkedIn.searchParams.set('certUrl', url)
  linkedIn.searchParams.set('certId', row.id)
  return {
    id: row.id,
    courseId: row.course_id,
    learnerName: row.learner_name,
    courseTitle: row.course_title,
    instructorName: row.instructor_name,
    issuedAt: row.issued_at.toISOString(),
    gradePercent: row.grade_percent,
    status: revoked ? ('revoked' as const) : ('verified' as const),
    url,
    pdfUrl: `/api/certificates/${row.id}/pdf`,
    linkedInUrl: revoked ? null : linkedIn.toString(),
    issuer,
  }
}
export type CertificateView = Awaited<ReturnType<typeof certificateView>>
