// Applying to teach, staff's decision, and a creator's public profile: the same schemas check the forms in the
// browser and the inputs on the server.
import { z } from 'zod'
import { APPLICATION_STATUS_LABELS, APPLICATION_STATUSES } from '../creator-applications.ts'

export const PROPOSAL_MIN = 200
export const PROPOSAL_MAX = 5000
export const BIO_MAX = 5000
export const CATEGORIES_MAX = 5
/** A declined person may apply again this many days after the decision. */
export const REAPPLY_AFTER_DAYS = 30
/** A CV or other PDF attached to an application. */
export const APPLICATION_PDF_MAX_BYTES = 10 * 1024 * 1024
export { APPLICATION_VIDEO_MAX_BYTES } from '../creator-applications.ts'

export const APPLICATION_MESSAGES = {
  submitted: 'Thank you! Your application was sent. We reply by e-mail, usually within a week.',
  open: 'You already have an application waiting for a decision.',
  creator: 'You are already a creator: go to your studio.',
  tooMany: 'You have sent several applications already. Please try again later.',
  attachmentMissing: 'The attached file could not be found. Please upload it again.',
  approved: 'Application approved: the applicant is now a creator',
  declined: 'Application declined',
} as const

/** "You can apply again on {date}": the date a declined person may apply again. */
export const reapplyMessage = (date: Date) =>
  `Your last application was declined. You can apply again from ${date.toISOString().slice(0, 10)}.`

const httpsUrl = (label: string, hosts?: readonly string[]) =>
  z
    .string()
    .trim()
    .max(300, `${label} must be at most 300 characters.`)
    .refine(
      (value) => {
        const url = URL.parse(value)
        if (url?.protocol !== 'https:') return false
        if (!hosts) return true
        const host = url.hostname.toLowerCase()
        return hosts.some((allowed) => host === allowed || host.endsWith(`.${allowed}`))
      },
      `${label} must be an https:// address${hosts ? ` on ${hosts[0]}` : ''}.`,
    )

/** Optional links: an empty field means none. */
const optionalLink = (label: string, hosts?: readonly string[]) =>
  z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    httpsUrl(label, hosts).optional(),
  )

export const linksSchema = z.object({
  website: optionalLink('Website'),
  linkedin: optionalLink('LinkedIn', ['linkedin.com']),
  youtube: optionalLink('YouTube', ['youtube.com', 'youtu.be']),
})
export type CreatorLinks = z.infer<typeof linksSchema>

export const applicationInput = z.object({
  headline: z
    .string()
    .trim()
    .min(5, 'Headline must be at least 5 characters.')
    .max(120, 'Headline must be at most 120 characters.'),
  categories: z
    .array(z.string().trim().min(1).max(80))
    .min(1, 'Choose at least one category.')
    .max(CATEGORIES_MAX, `Choose at most ${CATEGORIES_MAX} categories.`),
  proposal: z
    .string()
    .trim()
    .min(PROPOSAL_MIN, `Proposal must be at least ${PROPOSAL_MIN} characters.`)
    .max(PROPOSAL_MAX, `Proposal must be at most ${PROPOSAL_MAX} characters.`),
  links: linksSchema,
  /**
   * The attached file: a CV by the PDF route's answer (its key and name), or a sample video by its tus upload id
   * (one the applicant finished uploading with the purpose "application").
   */
  attachment: z
    .union([
      z.object({ key: z.string().min(1).max(300), name: z.string().trim().max(200) }),
      z.object({ uploadId: z.string().regex(/^[A-Za-z0-9_-]{1,128}$/), name: z.string().trim().max(200) }),
    ])
    .nullish(),
})
export type ApplicationInput = z.infer<typeof applicationInput>

export { APPLICATION_STATUS_LABELS, APPLICATION_STATUSES }

export const staffApplicationsInput = z.object({
  status: z.enum(APPLICATION_STATUSES).optional(),
  category: z.string().trim().max(80).optional(),
  /** Only applications older than this many days. */
  olderThanDays: z.number().int().min(1).max(365).optional(),
  page: z.number().int().min(1).max(10_000).default(1),
})

export const applicationIdInput = z.object({ id: z.uuid('Unknown application') })

export const declineInput = z.object({
  id: z.uuid('Unknown application'),
  reason: z
    .string()
    .trim()
    .min(10, 'Please give a reason of at least 10 characters.')
    .max(2000, 'The reason must be at most 2000 characters.'),
})

export const instructorSlugInput = z.object({ slug: z.string().trim().min(1).max(120) })

export const profileInput = z.object({
  name: z
    .string()
    .trim()
    .min(2, 'Name must be at least 2 characters.')
    .max(100, 'Name must be at most 100 characters.'),
  title: z
    .string()
    .trim()
    .min(2, 'Title must be at least 2 characters.')
    .max(120, 'Title must be at most 120 characters.'),
  bio: z.string().trim().max(BIO_MAX, `Bio must be at most ${BIO_MAX} characters.`),
  links: linksSchema,
})
export type ProfileInput = z.infer<typeof profileInput>
