// People's names as users type them (sign-up, profile, team invitations). They end up in pages and e-mails, so
// only what names are made of is accepted: letters of any script (with their combining marks), spaces,
// apostrophes, hyphens and periods; no digits, links, markup or control characters.
import { z } from 'zod'

export const PERSON_NAME_MAX_LENGTH = 50
const NAME_CHARACTERS = /^\p{L}[\p{L}\p{M} '’.-]*$/u

/** A required name field; `label` starts each message ("First name is required"). */
export function personName(label: string, max = PERSON_NAME_MAX_LENGTH) {
  return z
    .string()
    .trim()
    .min(1, { error: `${label} is required`, abort: true })
    .max(max, `${label} must be at most ${max} characters`)
    .regex(NAME_CHARACTERS, `${label} may only contain letters, spaces, apostrophes, hyphens and periods`)
}
