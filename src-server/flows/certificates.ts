// The public certificate page's data: who completed what, when, and whether it still stands. A certificate earned
// on a bought course shows "Revoked" once that purchase's access is revoked (a refund); one earned through Premium
// stands after the subscription ends (the learner did complete the course while it was theirs), but shows "Revoked"
// once the Premium they held then is refunded (or lost to a dispute), unless they hold the course another way now
// (they bought it, or another Premium opens it). Decision 0090.
import { ownsCourse, premiumHeldAtTakenBack } from '../access/courses.ts'
import { findCourseForLearning } from '../catalog/repository-lessons.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { findCertificate } from '../learning/repository.ts'
import { opensThroughPremium } from './lesson-access.ts'
import { brandOfCourse } from './school-domain.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

type CertificateRow = NonNullable<Awaited<ReturnType<typeof findCertificate>>>

async function isRevoked(db: DB, row: CertificateRow): Promise<boolean> {
  if (row.access_source === 'staff') return false
  if (await ownsCourse(db, row.user_id, row.course_id)) return false
  if (row.access_source === 'purchase') return true
  const course = await findCourseForLearning(db, row.course_id)
  if (course && (await opensThroughPremium(db, { id: row.user_id }, course))) return false
  return premiumHeldAtTakenBack(db, row.user_id, new Date(row.completed_at))
}

export async function certificateView(db: DB, id: string, publicUrl: string) {
  const row = UUID.test(id) ? await findCertificate(db, id) : undefined
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
