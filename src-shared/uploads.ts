// The wording of image uploads (spec §8), one table for the avatar and course images, for the browser's quick
// checks and the server's answers alike.
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
