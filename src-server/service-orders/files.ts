// Files of a service order (brief attachments, message attachments, deliverables): judged by their bytes (PDF,
// PNG, JPEG, GIF, WebP, Word/Excel/PowerPoint old and new), kept in storage under the private prefix with an
// unguessable key, and read back only for the order's buyer and staff.
import { randomBytes } from 'node:crypto'
import { hasRole } from '../../src-shared/roles.ts'
import { SERVICE_ORDER_MESSAGES } from '../../src-shared/service-orders.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { cleanFileName, detectDocumentType } from '../storage/document-type.ts'
import { UPLOAD_PREFIXES } from '../storage/keys.ts'
import type { FileStorage } from '../storage/storage.ts'
import { notFound, type Viewer, visibleOrder } from './access.ts'

export type FilePurpose = 'brief' | 'message' | 'delivery'

// Judged by the same rules as every private document upload (instructor messages too).
export { cleanFileName, detectDocumentType }

/** Who may add a file of this purpose, and when: the buyer while the brief is open and in messages; staff the rest. */
function mayUpload(order: Awaited<ReturnType<typeof visibleOrder>>, purpose: FilePurpose, asStaff: boolean) {
  if (purpose === 'brief') return !asStaff && order.status === 'brief_needed'
  if (purpose === 'delivery') return asStaff
  return order.status !== 'cancelled'
}

export async function storeFile(
  db: DB,
  storage: FileStorage,
  viewer: Viewer,
  orderId: string,
  upload: { purpose: FilePurpose; fileName: string; data: Buffer },
) {
  const order = await visibleOrder(db, orderId, viewer, 'either')
  // Viewers are read-only: staff files need editor, as sending a message and delivering do (staffProcedure).
  if (order.viewerIsStaff && !hasRole(viewer.role, 'editor')) {
    throw new DomainError('forbidden', 'You do not have permission to do that')
  }
  if (!mayUpload(order, upload.purpose, order.viewerIsStaff)) {
    throw new DomainError('forbidden', 'You cannot add this file now')
  }
  const type = detectDocumentType(upload.data, upload.fileName)
  if (!type) throw new DomainError('invalid', SERVICE_ORDER_MESSAGES.notAllowedFile)
  const key = `${UPLOAD_PREFIXES.serviceOrderFiles}${orderId}/${randomBytes(16).toString('hex')}.${type.ext}`
  await storage.put(key, upload.data, type.mime)
  const row = await db
    .insertInto('service_order_files')
    .values({
      service_order_id: orderId,
      purpose: upload.purpose,
      storage_key: key,
      file_name: cleanFileName(upload.fileName, type.ext),
      content_type: type.mime,
      size_bytes: upload.data.length,
      uploaded_by: viewer.id,
    })
    .returning(['id', 'file_name', 'content_type', 'size_bytes'])
    .executeTakeFirstOrThrow()
  return {
    id: row.id,
    name: row.file_name,
    contentType: row.content_type,
    sizeBytes: row.size_bytes,
    url: `/api/service-orders/${orderId}/files/${row.id}`,
  }
}

/** Joins files the author uploaded for a message or delivery (and not yet used) to it; unknown ids are refused. */
export async function attachFiles(
  trx: DB,
  orderId: string,
  authorId: string,
  fileIds: string[],
  to: { message_id: string } | { delivery_id: string },
  purpose: 'message' | 'delivery',
) {
  if (fileIds.length === 0) return
  const result = await trx
    .updateTable('service_order_files')
    .set(to)
    .where('id', 'in', fileIds)
    .where('service_order_id', '=', orderId)
    .where('uploaded_by', '=', authorId)
    .where('purpose', '=', purpose)
    .where('message_id', 'is', null)
    .where('delivery_id', 'is', null)
    .executeTakeFirst()
  if (Number(result.numUpdatedRows) !== new Set(fileIds).size) {
    throw new DomainError('invalid', 'An attachment could not be found. Please upload it again.')
  }
}

/** A brief file the buyer removes before submitting. */
export async function removeBriefFile(db: DB, storage: FileStorage, viewer: Viewer, orderId: string, fileId: string) {
  const order = await visibleOrder(db, orderId, viewer, 'buyer')
  if (order.status !== 'brief_needed') throw new DomainError('conflict', SERVICE_ORDER_MESSAGES.briefLocked)
  const row = await db
    .deleteFrom('service_order_files')
    .where('id', '=', fileId)
    .where('service_order_id', '=', orderId)
    .where('purpose', '=', 'brief')
    .returning('storage_key')
    .executeTakeFirst()
  if (!row) throw notFound()
  // The file is gone with its row: bytes storage failed to delete now are the upload sweep's (no row points at them).
  await storage.remove(row.storage_key).catch(() => undefined)
}

/**
 * A file's bytes for the order's buyer or staff. Files of internal notes are staff only, and files uploaded for a
 * message not sent yet only their uploader's.
 */
export async function readFileFor(db: DB, storage: FileStorage, viewer: Viewer, orderId: string, fileId: string) {
  const order = await visibleOrder(db, orderId, viewer, 'either')
  const file = await db
    .selectFrom('service_order_files')
    .leftJoin('service_order_messages', 'service_order_messages.id', 'service_order_files.message_id')
    .select([
      'service_order_files.storage_key',
      'service_order_files.file_name',
      'service_order_files.content_type',
      'service_order_files.uploaded_by',
      'service_order_files.purpose',
      'service_order_files.message_id',
      'service_order_files.delivery_id',
      'service_order_messages.internal',
    ])
    .where('service_order_files.id', '=', fileId)
    .where('service_order_files.service_order_id', '=', orderId)
    .executeTakeFirst()
  if (!file) throw notFound()
  const unsent = file.purpose !== 'brief' && !file.message_id && !file.delivery_id
  if (unsent && file.uploaded_by !== viewer.id) throw notFound()
  if (file.internal && !order.viewerIsStaff) throw notFound()
  const size = await storage.size(file.storage_key)
  if (size === null) throw notFound()
  return {
    stream: await storage.read(file.storage_key),
    size,
    fileName: file.file_name,
    contentType: file.content_type,
  }
}
