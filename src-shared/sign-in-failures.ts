// Why a sign-in through Google, Facebook or a school's own provider failed (decision 0144). The servers send the
// browser to /auth/callback (or /admin/login) with one of these codes, which way it was (`via`) and, for a school, its
// address (`school`) — never with words: the pages show only the words written here (an unknown code gets the generic
// one), so a link cannot make the platform's own page say whatever its author typed (content spoofing).
export const SIGN_IN_FAILURES = {
  expired: 'The sign-in request expired or did not match. Please try again.',
  cancelled: 'The sign-in was cancelled or refused at the provider.',
  unreachable: 'The provider could not be reached. Please try again later.',
  not_configured: 'This way of signing in is not set up on this site.',
  code_refused: 'The provider refused the sign-in code. Please try again.',
  provider_error: 'The provider did not complete the sign-in. Please try again.',
  email_unverified: 'The provider does not confirm that your e-mail address is verified.',
  not_staff: 'This account does not have staff access.',
  suspended:
    'This account is suspended, so it cannot sign in. If you think this is a mistake, write to us through the contact page.',
  sso_required:
    'Your school requires its members to sign in with its single sign-on. If you cannot sign in there, ask the school’s owner to remove you from its team.',
  sso_not_offered: 'This school does not offer single sign-on.',
  sso_unreachable: 'The school’s identity provider could not be reached. Please try again later.',
  sso_not_confirmed:
    'The school’s identity provider did not confirm the sign-in. If this keeps happening, tell the school: its sign-in may be set up wrongly.',
  sso_provider_error: 'The school’s sign-in is not set up correctly. Please tell the school.',
  sso_domain_not_allowed: 'Addresses at your e-mail domain cannot sign in through this school.',
  sso_domain_elsewhere: 'Addresses at your e-mail domain sign in through another school.',
  sso_domain_unproven:
    'This school has not verified your e-mail domain yet, so its sign-in cannot make an account for you.',
  sso_staff: 'Staff accounts sign in on the staff log-in page, not through a school.',
  sso_existing_account:
    'An account with this address already exists: sign in with its password first, then use this sign-in again to link the two.',
  sso_linked_elsewhere: 'This sign-in is linked to another account.',
  failed: 'Something went wrong. Please try again.',
} as const

export type SignInFailureCode = keyof typeof SIGN_IN_FAILURES

export const SIGN_IN_VIA = { google: 'Google login failed', facebook: 'Facebook login failed', school: '' } as const
export type SignInVia = keyof typeof SIGN_IN_VIA

/** The address a failed sign-in goes to: `path` (/auth/callback or /admin/login) with the code, the way and the school. */
export function signInFailurePath(path: string, via: SignInVia, code: SignInFailureCode, schoolSlug?: string) {
  const search = new URLSearchParams({ error: code, via })
  if (schoolSlug) search.set('school', schoolSlug)
  return `${path}?${search}`
}

const isCode = (code: string): code is SignInFailureCode => Object.hasOwn(SIGN_IN_FAILURES, code)

/**
 * The words for a failure: the title names the way (the school by its own name, looked up by the page from its
 * address), the message is the code's; any other text is not shown.
 */
export function describeSignInFailure(
  code: string | undefined,
  via: string | undefined,
  school?: { name: string; slug: string } | null,
): { title: string; message: string } {
  const known: SignInFailureCode = code && isCode(code) ? code : 'failed'
  const title =
    via === 'google' || via === 'facebook'
      ? SIGN_IN_VIA[via]
      : via === 'school'
        ? `${school?.name ?? 'School'} sign-in failed`
        : 'Sign-in failed'
  if (known === 'sso_required' && school) {
    return {
      title,
      message: `${school.name} requires its members to sign in with single sign-on: use “Sign in with ${school.name}” below. If you cannot sign in there, ask the school’s owner to remove you from its team.`,
    }
  }
  return { title, message: SIGN_IN_FAILURES[known] }
}
