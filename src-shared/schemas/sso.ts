// Inputs of a school's single sign-on with OpenID Connect (decision 0062): the studio's SSO page and the sign-in
// button's look-up. The client secret is write-only: left empty, the stored one is kept.
import { z } from 'zod'

const DOMAIN = /^(?=.{3,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/

/** Mail services anyone can sign up to: a school cannot claim their addresses. */
export const PUBLIC_MAIL_DOMAINS = [
  'gmail.com',
  'googlemail.com',
  'outlook.com',
  'hotmail.com',
  'live.com',
  'yahoo.com',
  'icloud.com',
  'me.com',
  'aol.com',
  'proton.me',
  'protonmail.com',
  'gmx.com',
  'mail.com',
  'yandex.com',
]

/** Where a school publishes the proof of an e-mail domain: a TXT record at this name under the domain. */
export const SSO_DOMAIN_PROOF_PREFIX = '_skillforge-sso'

export const ssoDomainProofRecordName = (domain: string) => `${SSO_DOMAIN_PROOF_PREFIX}.${domain}`

export const ssoDomainsSchema = z
  .string()
  .max(2000, 'Keep the list under 2,000 characters')
  .transform((text) => [...new Set(text.split(/[\s,;]+/).map((part) => part.trim().toLowerCase().replace(/^@/, '')))])
  .transform((parts) => parts.filter(Boolean))
  .pipe(
    z
      .array(
        z
          .string()
          .regex(DOMAIN, 'Enter domains such as example.com')
          .refine(
            (domain) => !PUBLIC_MAIL_DOMAINS.includes(domain),
            'A public mail service cannot be a school’s domain',
          ),
      )
      .min(1, 'Enter at least one e-mail domain')
      .max(20, 'Up to 20 domains'),
  )

export const schoolSsoInput = z.object({
  issuer: z
    .string()
    .trim()
    .max(300, 'Keep the issuer under 300 characters')
    .pipe(z.url({ protocol: /^https?$/, error: 'Enter the issuer’s URL, such as https://login.example.com' })),
  clientId: z.string().trim().min(1, 'Enter the client id').max(300, 'Keep the client id under 300 characters'),
  /** Empty keeps the stored secret. */
  clientSecret: z.string().trim().max(500, 'Keep the secret under 500 characters'),
  domains: ssoDomainsSchema,
  enabled: z.boolean(),
  requireForMembers: z.boolean(),
})
export type SchoolSsoInput = z.output<typeof schoolSsoInput>

/** "Check" on one allowed e-mail domain's DNS proof. */
export const checkSsoDomainInput = z.object({
  domain: z
    .string()
    .trim()
    .toLowerCase()
    .max(253)
    .transform((domain) => domain.replace(/^@/, ''))
    .pipe(z.string().regex(DOMAIN, 'Enter a domain such as example.com')),
})

export const ssoSchoolInput = z.object({ slug: z.string().trim().toLowerCase().min(1).max(60) })

/** "Unlink" on the security page: the school whose sign-in is linked to the account. */
export const unlinkSchoolSignInInput = z.object({ schoolId: z.uuid('Choose a school') })
