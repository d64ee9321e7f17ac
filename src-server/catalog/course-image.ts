// Which image a course may be saved with: a course image our storage produced (local /uploads/courses/… or the
// bucket's or CDN's URL, http included), the catalogue's own static images (the seed's covers, the placeholder),
// or its current image unchanged (so an edit still saves after S3_PUBLIC_URL moved). Nothing else: a course
// page must not load images from anywhere an editor types.
import { COURSE_IMAGE_REFUSED } from '../../src-shared/schemas/admin.ts'
import { DomainError } from '../kernel/errors.ts'
import { UPLOAD_PREFIXES } from '../storage/keys.ts'
import { type FileStorage, isSafeKey } from '../storage/storage.ts'

const STATIC_IMAGE = /^\/(placeholder\.svg|images(\/[\w-]+)*\/[\w-]+\.(svg|png|jpe?g|webp|gif))$/

export function isAcceptedCourseImage(
  url: string,
  storage: Pick<FileStorage, 'keyFromUrl'>,
  current?: string,
): boolean {
  if (url === '' || url === current || STATIC_IMAGE.test(url)) return true
  const key = storage.keyFromUrl(url)
  return key?.startsWith(UPLOAD_PREFIXES.courseImages) === true && isSafeKey(key)
}

export function assertCourseImage(url: string, storage: Pick<FileStorage, 'keyFromUrl'>, current?: string) {
  if (!isAcceptedCourseImage(url, storage, current))
    throw new DomainError('invalid', COURSE_IMAGE_REFUSED, { field: 'imageUrl' })
}
