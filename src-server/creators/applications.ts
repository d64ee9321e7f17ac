// Applications to teach: one open application per person (a unique partial index), a declined person may apply
// again REAPPLY_AFTER_DAYS after the decision, staff read the queue and decide. The attached file (a CV or a sample
// video) was stored under the applicant's own private prefix — a CV by the PDF route, a sample video by the tus
// uploads (purpose "application", named by its upload id) — and is checked here to belong to the applicant and to
// exist before the application refers to it.

import { sql } from 'kysely'
import type { CreatorApplicationAttachment, CreatorApplicationStatus, InstructorLinks } from '../../db/types.ts'
import { fullName } from '../../src-shared/names.ts'
import {
  APPLICATION_MESSAGES,
  type ApplicationInput,
  REAPPLY_AFTER_DAYS,
  reapplyMessage,
} from '../../src-shared/schemas/creators.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { pageOf } from '../kernel/paging.ts'
import { isUniqueViolation } from '../kernel/pg-errors.ts'
import { safeFileName } from '../storage/document-type.ts'
import { UPLOAD_PREFIXES } from '../storage/keys.ts'
import { type FileStorage, isSafeKey } from '../storage/storage.ts'
import { storedApplicationUpload } from './upload-rows.ts'

const DAY_MS = 24 * 60 * 60 * 1000

/** Where an applicant's attachments are stored: their own folder under the private applications prefix. */
export const applicationFilePrefix = (userId: string) => `${UPLOAD_PREFIXES.applications}${userId}/`

export const ATTACHMENT_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  mp4: 'video/mp4',
  mov: 'video/quicktime',
  webm: 'video/webm',
}

const applicationColumns = [
  'creator_applications.id',
  'creator_applications.user_id',
  'creator_applications.headline',
  'creator_applications.category_ids',
  'creator_applications.proposal',
  'creator_applications.links',
  'creator_applications.attachment',
  'creator_applications.status',
  'creator_applications.decision_reason',
  'creator_applications.decided_at',
  'creator_applications.created_at',
] as const

/** Category slugs as their ids; an unknown slug is refused. */
async function categoryIdsOf(db: DB, slugs: string[]): Promise<string[]> {
  const unique = [...new Set(slugs)]
  const rows = await db.selectFrom('categories').select(['id', 'slug']).where('slug', 'in', unique).execute()
  if (rows.length !== unique.length) {
    throw new DomainError('invalid', 'Please choose categories from the list.', { field: 'categories' })
  }
  return unique.map((slug) => rows.find((row) => row.slug === slug)?.id as string)
}

/** The attachment the applicant uploaded, described from storage (never from what the browser says). */
async function attachmentOf(
  db: DB,
  storage: FileStorage,
  userId: string,
  attachment: ApplicationInput['attachment'],
): Promise<CreatorApplicationAttachment | null> {
  if (!attachment) return null
  const missing = () => new DomainError('invalid', APPLICATION_MESSAGES.attachmentMissing, { field: 'attachment' })
  if ('uploadId' in attachment) return sampleVideoOf(db, storage, userId, attachment)
  const { key } = attachment
  const ext = /\.([a-z0-9]+)$/.exec(key)?.[1] ?? ''
  const contentType = ATTACHMENT_TYPES[ext]
  if (!key.startsWith(applicationFilePrefix(userId)) || !isSafeKey(key) || !contentType) throw missing()
  const sizeBytes = await storage.size(key)
  if (sizeBytes === null) throw missing()
  const name = safeFileName(attachment.name, `attachment.${ext}`)
  return { key, name, contentType, sizeBytes }
}

/** A sample video the applicant finished uploading over tus, by its upload id; anyone else's is not found. */
async function sampleVideoOf(
  db: DB,
  storage: FileStorage,
  userId: string,
  attachment: { uploadId: string; name: string },
): Promise<CreatorApplicationAttachment> {
  const missing = () => new DomainError('invalid', APPLICATION_MESSAGES.attachmentMissing, { field: 'attachment' })
  const upload = await storedApplicationUpload(db, userId, attachment.uploadId)
  const key = upload?.storageKey
  if (!upload || !key?.startsWith(applicationFilePrefix(userId)) || !upload.contentType) throw missing()
  if ((await storage.size(key)) === null) throw missing()
  const name = safeFileName(attachment.name || upload.fileName, upload.fileName)
  return { key, name, contentType: upload.contentType, sizeBytes: upload.sizeBytes }
}

/** Refuses a new application while one is open, for a creator, or within 30 days of a decline. */
async function assertMayApply(db: DB, userId: string, now: Date) {
  const creator = await db.selectFrom('creators').select('user_id').where('user_id', '=', userId).executeTakeFirst()
  if (creator) throw new DomainError('conflict', APPLICATION_MESSAGES.creator)
  const latest = await db
    .selectFrom('creator_applications')
    .select(['status', 'decided_at', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst()
  if (latest?.status === 'submitted') throw new DomainError('conflict', APPLICATION_MESSAGES.open)
  if (latest?.status === 'declined') {
    const from = new Date((latest.decided_at ?? latest.created_at).getTime() + REAPPLY_AFTER_DAYS * DAY_MS)
    if (from > now) throw new DomainError('conflict', reapplyMessage(from))
  }
}

export async function submitApplication(
  db: DB,
  storage: FileStorage,
  userId: string,
  input: ApplicationInput,
  now = clock.now(),
): Promise<{ id: string }> {
  await assertMayApply(db, userId, now)
  const categoryIds = await categoryIdsOf(db, input.categories)
  const attachment = await attachmentOf(db, storage, userId, input.attachment)
  try {
    return await db
      .insertInto('creator_applications')
      .values({
        user_id: userId,
        headline: input.headline,
        category_ids: JSON.stringify(categoryIds),
        proposal: input.proposal,
        links: JSON.stringify(input.links),
        attachment: attachment ? JSON.stringify(attachment) : null,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  } catch (error) {
    // Two submissions at once: the unique index of open applications lets one through.
    if (isUniqueViolation(error)) throw new DomainError('conflict', APPLICATION_MESSAGES.open)
    throw error
  }
}

type ApplicationRow = {
  id: string
  user_id: string
  headline: string
  category_ids: string[]
  proposal: string
  links: InstructorLinks
  attachment: CreatorApplicationAttachment | null
  status: CreatorApplicationStatus
  decision_reason: string | null
  decided_at: Date | null
  created_at: Date
}

async function categoryNames(db: DB, ids: string[]) {
  if (ids.length === 0) return new Map<string, { slug: string; name: string }>()
  const rows = await db.selectFrom('categories').select(['id', 'slug', 'name']).where('id', 'in', ids).execute()
  return new Map(rows.map((row) => [row.id, { slug: row.slug, name: row.name }]))
}

/** What the applicant and staff see of an application (the file by its download route, never its key). */
function toApplication(row: ApplicationRow, names: Map<string, { slug: string; name: string }>) {
  return {
    id: row.id,
    headline: row.headline,
    categories: row.category_ids.flatMap((id) => {
      const found = names.get(id)
      return found ? [found] : []
    }),
    proposal: row.proposal,
    links: row.links,
    attachment: row.attachment
      ? {
          name: row.attachment.name,
          contentType: row.attachment.contentType,
          sizeBytes: row.attachment.sizeBytes,
          url: `/api/creator-applications/${row.id}/attachment`,
        }
      : null,
    status: row.status,
    decisionReason: row.decision_reason,
    decidedAt: row.decided_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
  }
}

/** The applicant's latest application, with the date a declined one may apply again. */
export async function myApplication(db: DB, userId: string) {
  const row = await db
    .selectFrom('creator_applications')
    .select(applicationColumns)
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst()
  if (!row) return null
  const application = toApplication(row, await categoryNames(db, row.category_ids))
  const reapplyFrom =
    row.status === 'declined'
      ? new Date((row.decided_at ?? row.created_at).getTime() + REAPPLY_AFTER_DAYS * DAY_MS).toISOString()
      : null
  return { ...application, reapplyFrom }
}

export interface ApplicationFilters {
  status?: CreatorApplicationStatus
  category?: string
  olderThanDays?: number
}

/** Staff's queue: oldest open first when filtered by status, else newest first; with the applicant. */
export async function listApplications(
  db: DB,
  filters: ApplicationFilters,
  page: number,
  pageSize: number,
  now = clock.now(),
) {
  let query = db.selectFrom('creator_applications').innerJoin('users', 'users.id', 'creator_applications.user_id')
  if (filters.status) query = query.where('creator_applications.status', '=', filters.status)
  if (filters.olderThanDays) {
    query = query.where(
      'creator_applications.created_at',
      '<',
      new Date(now.getTime() - filters.olderThanDays * DAY_MS),
    )
  }
  if (filters.category) {
    const category = await db
      .selectFrom('categories')
      .select('id')
      .where('slug', '=', filters.category)
      .executeTakeFirst()
    if (!category) return { items: [], total: 0, page, pageCount: 1 }
    query = query.where(sql<boolean>`creator_applications.category_ids @> ${JSON.stringify([category.id])}::jsonb`)
  }
  const { rows, ...paging } = await pageOf(
    query
      .select([...applicationColumns, 'users.email', 'users.first_name', 'users.last_name'])
      .orderBy('creator_applications.created_at', filters.status === 'submitted' ? 'asc' : 'desc')
      .orderBy('creator_applications.id'),
    page,
    pageSize,
  )
  const names = await categoryNames(db, [...new Set(rows.flatMap((row) => row.category_ids))])
  return {
    items: rows.map((row) => ({
      ...toApplication(row, names),
      applicant: { email: row.email, name: fullName(row.first_name, row.last_name) },
    })),
    ...paging,
  }
}

/** One application for staff, with the applicant; not found for an unknown id. */
export async function applicationForStaff(db: DB, id: string) {
  const row = await db
    .selectFrom('creator_applications')
    .innerJoin('users', 'users.id', 'creator_applications.user_id')
    .select([...applicationColumns, 'users.email', 'users.first_name', 'users.last_name'])
    .where('creator_applications.id', '=', id)
    .executeTakeFirst()
  if (!row) throw new DomainError('not_found', 'Application not found')
  return {
    ...toApplication(row, await categoryNames(db, row.category_ids)),
    applicant: { email: row.email, name: fullName(row.first_name, row.last_name) },
  }
}

/**
 * Marks an open application decided, in the caller's transaction (locked first: two staff deciding at once see
 * one decision). Returns the applicant; an application already decided is a conflict.
 */
export async function markDecided(
  trx: DB,
  id: string,
  decision: { status: 'approved' | 'declined'; reason: string | null; decidedBy: string },
) {
  const current = await trx
    .selectFrom('creator_applications')
    .select(['id', 'status', 'user_id'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst()
  if (!current) throw new DomainError('not_found', 'Application not found')
  if (current.status !== 'submitted') throw new DomainError('conflict', 'This application was already decided')
  await trx
    .updateTable('creator_applications')
    .set({
      status: decision.status,
      decision_reason: decision.reason,
      decided_by: decision.decidedBy,
      decided_at: clock.now(),
    })
    .where('id', '=', id)
    .execute()
  return { userId: current.user_id, before: current.status }
}

/** The stored file of an application, for staff (viewer and up) or the applicant; anyone else: not found. */
export async function applicationFileFor(db: DB, viewer: { id: string; isStaff: boolean }, id: string) {
  const row = await db
    .selectFrom('creator_applications')
    .select(['user_id', 'attachment'])
    .where('id', '=', id)
    .executeTakeFirst()
  if (!row?.attachment || (!viewer.isStaff && row.user_id !== viewer.id)) {
    throw new DomainError('not_found', 'File not found')
  }
  return row.attachment
}
