// Inputs of a creator's school and team (decision 0057): the studio's school page, the invitation page and the
// public page /s/{slug}.
import { z } from 'zod'

export const SCHOOL_MEMBER_ROLES = ['instructor', 'finance', 'support'] as const
export type SchoolMemberRoleId = (typeof SCHOOL_MEMBER_ROLES)[number]

/** A role's name on screens and in mails (the studio's team, the member's own page, the role-change mail). */
export const SCHOOL_ROLE_LABELS: Record<SchoolMemberRoleId, string> = {
  instructor: 'Instructor',
  finance: 'Finance',
  support: 'Support',
}

export const SCHOOL_ROLE_DESCRIPTIONS: Record<SchoolMemberRoleId, string> = {
  instructor: 'Instructor — edits the school’s courses and answers questions',
  finance: 'Finance — sees earnings, statements and payouts',
  support: 'Support — answers learners’ questions and messages',
}

export const SCHOOL_SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,58}[a-z0-9])?$/

export const schoolSlugSchema = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, 'Enter the address')
  .max(60, 'Keep the address under 60 characters')
  .regex(SCHOOL_SLUG_PATTERN, 'Use lower-case letters, digits and hyphens (not at the start or end)')

export const schoolSettingsInput = z.object({
  name: z.string().trim().min(1, 'Enter the school’s name').max(120, 'Keep the name under 120 characters'),
  slug: schoolSlugSchema,
})

export const schoolRoleSchema = z.enum(SCHOOL_MEMBER_ROLES, 'Choose a role')

export const inviteSchoolMemberInput = z.object({
  email: z.string().trim().toLowerCase().max(254).pipe(z.email('Enter a valid e-mail address')),
  role: schoolRoleSchema,
})

export const schoolMemberRefInput = z.object({ userId: z.uuid() })
export const schoolMemberRoleInput = z.object({ userId: z.uuid(), role: schoolRoleSchema })
export const schoolInviteRefInput = z.object({ inviteId: z.uuid() })
export const schoolRefInput = z.object({ schoolId: z.uuid() })
export const schoolInviteTokenInput = z.object({ token: z.string().trim().min(1).max(200) })
export const schoolPageInput = z.object({ slug: z.string().trim().toLowerCase().min(1).max(60) })
/** The school a member acts for; absent: the caller's own school (creators). */
export const actingSchoolInput = z.object({ schoolId: z.uuid().optional() })
