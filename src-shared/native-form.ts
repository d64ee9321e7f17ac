// A form submitted by the browser itself (before the page's JavaScript has arrived, or without it) is posted to
// the page's own address; the server runs the same procedure the page would call and, unless it redirects, renders
// the page again with this result in the query cache under NATIVE_FORM_KEY (the page reads it as its first state).

export interface NativeFormResult {
  /** The page path the result belongs to ('/login'): a result never shows on another page. */
  form: string
  /** What the user typed, to fill the form again; never a password or a token. */
  values: Record<string, string>
  /** Field name → its message. */
  fieldErrors: Record<string, string>
  /** A message about the whole form (wrong password, too many attempts, an outage). */
  formError?: string
  /** The success message when it worked and the page shows it instead of redirecting. */
  done?: string
  /** The school (slug) whose own sign-in is the way in instead: the log-in page offers its button. */
  ssoSchool?: string
}

export const NATIVE_FORM_KEY = ['native-form-result'] as const

/** A form's posted fields by name: the page's FormData, or the urlencoded body the server is sent. */
export type PostedFields = Record<string, string>

/** A posted checkbox: 'on' when ticked, absent when not. */
export const checked = (value: string | undefined) => value === 'on'

/** The named text fields as posted, a missing one as empty text (the procedure's schema says what is wrong). */
export function texts<const Name extends string>(fields: PostedFields, names: readonly Name[]): Record<Name, string> {
  return Object.fromEntries(names.map((name) => [name, fields[name] ?? ''])) as Record<Name, string>
}

// The log-in, sign-up and contact forms' fields as their procedure's input, read one way by the page and by the
// server. A box that must be ticked is typed as the procedure takes it; its schema refuses it unticked.
export const loginFields = (fields: PostedFields) => ({
  ...texts(fields, ['email', 'password']),
  remember: checked(fields.remember),
})
export const signupFields = (fields: PostedFields) => ({
  ...texts(fields, ['firstName', 'lastName', 'email', 'password']),
  acceptTerms: checked(fields.acceptTerms) as true,
})
export const contactFields = (fields: PostedFields) => ({
  ...texts(fields, ['name', 'email', 'subject', 'message']),
  agreement: checked(fields.agreement) as true,
})

/** The /verify-email post that asks for a new link (its field `intent`), not one that checks a token. */
export const RESEND_VERIFICATION_INTENT = 'resend'

/** Form fields whose values are never sent back into a page. */
export const SECRET_FIELDS = ['password', 'confirm', 'currentPassword', 'newPassword', 'token', 'code'] as const

/**
 * The first message of each field in a list of zod-style issues. `nested`: an object of fields that the form shows
 * as fields of their own (`links.website` answers as `website`).
 */
export function firstIssueByField(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
  nested?: string,
) {
  const errors: Record<string, string> = {}
  for (const issue of issues) {
    const field = String((nested !== undefined && issue.path[0] === nested ? issue.path[1] : issue.path[0]) ?? '')
    errors[field] ??= issue.message
  }
  return errors
}
