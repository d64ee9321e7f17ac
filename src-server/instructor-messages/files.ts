// Attachments of messages to instructors, by the private-file rules of service orders: judged by their bytes, kept
// under the private prefix with an unguessable key, tied to the message that carries them when it is sent, and
// read back only by the thread's two sides (the flow checks who; an unsent file is its uploader's only).
import { randomBytes } from 'node:crypto'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { cleanFileName, detectDocumentType } from '../storage/document-type.ts'
import { UPLOAD_PREFIXES } from '../storage/keys.ts'
import type { FileStorage } from '../storage/storage.ts'

export const NOT_ALLOWED_FILE = 'Attach a PDF, an image or an office document'

export async function storeMessageFile(
  db: DB,
  storage: FileStorage,
  upload: { courseId: string; uploaderId: string; fileName: string; data: Buffer },
) {
  const type = detectDocumentType(upload.data, upload.fileName)
  if (!type) throw new DomainError('invalid', NOT_ALLOWED_FILE)
  const key = `${UPLOAD_PREFIXES.instructorMessages}${randomBytes(16).toString('hex')}.${type.ext}`
  await storage.put(key, upload.data, type.mime)
  const row = await db
    .insertInto('course_message_files')
    .values({
      course_id: upload.courseId,
      storage_key: key,
      file_name: cleanFileName(upload.fileName, type.ext),
      content_type: type.mime,
      size_bytes: upload.data.length,
      uploaded_by: upload.uploaderId,
    })
    .returning(['id', 'file_name', 'content_type', 'size_bytes'])
    .executeTakeFirstOrThrow()
  return { id: row.id, name: row.file_name, contentType: row.content_type, sizeBytes: row.size_bytes }
}

/** Ties files this author uploaded for this course (and not sent yet) to the message; unknown ids are refused. */
export async function attachMessageFiles(
  trx: DB,
  files: { courseId: string; authorId: string; threadId: string; messageId: string; fileIds: string[] },
) {
  if (files.fileIds.length === 0) return
  const result = await trx
    .updateTable('course_message_files')
    .set({ thread_id: files.threadId, message_id: files.messageId })
    .where('id', 'in', files.fileIds)
    .where('course_id', '=', files.courseId)
    .where('uploaded_by', '=', files.authorId)
    .where('message_id', 'is', null)
    .executeTakeFirst()
  if (Number(result.numUpdatedRows) !== new Set(files.fileIds).size) {
    throw new DomainError('invalid', 'An attachment could not be found. Please upload it again.')
  }
}

export function filesOfThread(db: DB, threadId: string) {
  return db
    .selectFrom('course_message_files')
    .select(['id', 'message_id', 'file_name', 'content_type', 'size_bytes'])
    .where('thread_id', '=', threadId)
    .where('message_id', 'is not', null)
    .orderBy('created_at')
    .execute()
}

export function findMessageFile(db: DB, fileId: string) {
  return db
    .selectFrom('course_message_files')
    .select(['id', 'thread_id', 'message_id', 'uploaded_by', 'storage_key', 'file_name', 'content_type'])
    .where('id', '=', fileId)
    .executeTakeFirst()
}

export async function readStoredFile(
  storage: FileStorage,
  file: { storage_key: string; file_name: string; content_type: string },
) {
  const size = await storage.size(file.storage_key)
  if (size === null) throw new DomainError('not_found', 'File not found')
  return {
    stream: await storage.read(file.storage_key),
    size,
    fileName: file.file_name,
    contentType: file.content_type,
  }
}

/**
 * An erased member's attachments: those in their own conversations and any not sent yet (what they sent as an
 * instructor stays with the learner's conversation, like the message). Returns the storage keys to remove after commit.
 */
export async function deleteMemberFiles(trx: DB, userId: string): Promise<string[]> {
  const rows = await trx
    .deleteFrom('course_message_files')
    .where('uploaded_by', '=', userId)
    .where((eb) =>
      eb.or([
        eb('message_id', 'is', null),
        eb('thread_id', 'in', eb.selectFrom('course_message_threads').select('id').where('member_id', '=', userId)),
      ]),
    )
    .returning('storage_key')
    .execute()
  return rows.map((row) => row.storage_key)
}
