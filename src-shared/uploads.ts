// The limits and wording of uploads, for the browser's quick checks and the server's answers alike: images (spec §8),
// one table for the avatar and course images; and staff's lesson files (the admin course editor).
import { AVATAR_MAX_BYTES } from './constants.ts'

/** Both uploads take images up to 2 MB (spec §9). */
export const IMAGE_MAX_BYTES = AVATAR_MAX_BYTES

export const IMAGE_UPLOAD_MESSAGES = {
  notImage: 'Please select an image file',
  tooLarge: 'Image size should be less than 2MB',
  failed: 'Failed to upload image. Please try again.',
  tooMany: 'Too many uploads. Please try again later.',
} as const

export const AVATAR_MESSAGES = { ...IMAGE_UPLOAD_MESSAGES, updated: 'Profile image updated successfully!' } as const

export const COURSE_IMAGE_MESSAGES = {
  ...IMAGE_UPLOAD_MESSAGES,
  uploaded: 'Image uploaded successfully!',
  replaced: 'Image updated successfully!',
} as const

/** Staff's lesson video, unless the server sets LESSON_VIDEO_MAX_BYTES (admin.courses.lessonContent says which). */
export const DEFAULT_LESSON_VIDEO_MAX_BYTES = 200 * 1024 * 1024
export const LESSON_ATTACHMENT_MAX_BYTES = 20 * 1024 * 1024

/** "200MB", "512kB": a limit as the refusals write it. */
const limitText = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${Math.floor(bytes / (1024 * 1024))}MB` : `${Math.floor(bytes / 1024)}kB`

export const LESSON_UPLOAD_MESSAGES = {
  videoTooLarge: (maxBytes: number) => `Video size should be less than ${limitText(maxBytes)}`,
  fileTooLarge: `File size should be less than ${limitText(LESSON_ATTACHMENT_MAX_BYTES)}`,
} as const
