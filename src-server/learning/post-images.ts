// Images in questions and answers under lessons (issue 33): learning/ owns their rows. The bytes live under a private
// storage key (never served by /uploads); http/post-images.ts serves them to those who may see the lesson.
import { POST_IMAGE_PATH } from '../../src-shared/schemas/questions.ts'
import type { DB } from '../kernel/db.ts'

export async function insertPostImage(
  db: DB,
  row: {
    courseId: string
    lessonId: string
    uploaderId: string
    storageKey: string
    contentType: string
    size: number
  },
) {
  return db
    .insertInto('lesson_post_images')
    .values({
      course_id: row.courseId,
      lesson_id: row.lessonId,
      uploader_id: row.uploaderId,
      storage_key: row.storageKey,
      content_type: row.contentType,
      size_bytes: row.size,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
}

const POST_IMAGE_ID = new RegExp(
  `${POST_IMAGE_PATH.replace(/\//g, '\\/')}([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})`,
  'gi',
)

/** The ids of our own post images a Markdown body points at (as renderPostMarkdown would show them). */
export function postImageIdsIn(markdown: string): string[] {
  return [...new Set([...markdown.matchAll(POST_IMAGE_ID)].map((match) => (match[1] as string).toLowerCase()))]
}

/**
 * Ties the images a just-saved post uses to it: only images its author uploaded under the same lesson that no post
 * has taken yet (someone else's image id pasted into a body stays theirs). Run in the transaction that saves the post.
 */
export async function attachPostImages(
  db: DB,
  post: { id: string; kind: 'question' | 'answer'; courseId: string; lessonId: string; authorId: string; body: string },
) {
  const ids = postImageIdsIn(post.body)
  if (ids.length === 0) return 0
  const result = await db
    .updateTable('lesson_post_images')
    .set({ post_id: post.id, post_kind: post.kind })
    .where('id', 'in', ids)
    .where('course_id', '=', post.courseId)
    .where('lesson_id', '=', post.lessonId)
    .where('uploader_id', '=', post.authorId)
    .where('post_id', 'is', null)
    .executeTakeFirst()
  return Number(result.numUpdatedRows)
}

/** An image with whether the post using it is hidden (an answer is hidden with its question too). */
export function findPostImage(db: DB, imageId: string) {
  return db
    .selectFrom('lesson_post_images as i')
    .leftJoin('lesson_answers as a', (join) => join.onRef('a.id', '=', 'i.post_id').on('i.post_kind', '=', 'answer'))
    .leftJoin('lesson_questions as q', (join) =>
      join.on((eb) =>
        eb.or([
          eb.and([eb('i.post_kind', '=', 'question'), eb('q.id', '=', eb.ref('i.post_id'))]),
          eb('q.id', '=', eb.ref('a.question_id')),
        ]),
      ),
    )
    .select(['i.id', 'i.course_id', 'i.lesson_id', 'i.storage_key', 'i.content_type', 'i.post_id'])
    .select((eb) => eb.or([eb('q.hidden_at', 'is not', null), eb('a.hidden_at', 'is not', null)]).as('post_hidden'))
    .where('i.id', '=', imageId)
    .executeTakeFirst()
}
