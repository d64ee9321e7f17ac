// Inputs of a school's own domain and white-label brand (decision 0063): the studio's /studio/domain page.
import { z } from 'zod'

/** Where the school publishes its verification token: a TXT record at this name under its hostname. */
export const DOMAIN_VERIFY_PREFIX = '_skillforge-verify'

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/

/** A hostname a school may claim: two labels or more, letters in the last, no address, no port, no wildcard. */
export function isClaimableHostname(value: string): boolean {
  if (value.length < 4 || value.length > 253) return false
  const labels = value.split('.')
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return false
  return /^[a-z]{2,63}$/.test(labels.at(-1) ?? '')
}

export const hostnameSchema = z
  .string()
  .trim()
  .toLowerCase()
  .transform((value) => value.replace(/\.$/, ''))
  .refine(isClaimableHostname, 'Enter a domain name such as academy.example.com (no http://, path or port)')

export const addDomainInput = z.object({ hostname: hostnameSchema })

export const BRAND_COLOR_PATTERN = /^#[0-9a-f]{6}$/

export const schoolBrandInput = z.object({
  displayName: z.string().trim().min(1, 'Enter the name to show').max(80, 'Keep the name under 80 characters'),
  brandColor: z.string().trim().toLowerCase().regex(BRAND_COLOR_PATTERN, 'Enter a colour as #rrggbb'),
})

export const brandQueryInput = z.object({ slug: z.string().trim().toLowerCase().max(60).optional() })

/** The platform's /handoff page: the school domain a sign-in is handed to. */
export const handoffTargetInput = z.object({ site: z.string().trim().toLowerCase().min(1).max(253) })

/**
 * A page a school's own domain may serve (decision 0143): a course's page or player by its course, or a bundle's page;
 * the browser's router asks before following a link there, as the server does when the page is loaded.
 */
export const sitePageInput = z.union([
  z.strictObject({ courseId: z.string().trim().min(1).max(120) }),
  z.strictObject({ bundleSlug: z.string().trim().min(1).max(80) }),
  z.strictObject({ certificateId: z.string().trim().min(1).max(120) }),
])
