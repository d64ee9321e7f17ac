import { createFileRoute, Link, redirect } from '@tanstack/react-router'
import { AuthCard } from '#client/components/auth/AuthCard.tsx'
import { SchoolSignIn } from '#client/components/auth/SchoolSignIn.tsx'
import { button } from '#client/components/ui/button.ts'
import { FormAlert } from '#client/components/ui/form.tsx'
import { notify } from '#client/components/ui/toaster.tsx'
import { optionalText, searchParams } from '#client/lib/search-params.ts'
import { safeReturnPath } from '#shared/auth.ts'

// Where Google and Facebook sign-in come back to (the server already set the session, or sent an error).
// `school`: with an error, the school whose own sign-in is the account's way in (a member it holds to it): its button.
const routeSearch = searchParams({
  redirect: optionalText,
  error: optionalText,
  deletion: optionalText,
  school: optionalText,
})

export const Route = createFileRoute('/auth/callback')({
  validateSearch: routeSearch,
  beforeLoad: async ({ context, search, preload }) => {
    if (preload) return
    if (search.error) {
      // "Google login failed: reason" → title and description.
      const [title, ...reason] = search.error.split(': ')
      notify('error', title ?? search.error, reason.join(': ') || undefined)
      return
    }
    // Signed in: answers cached as a visitor are out of date. Then back to where the visitor started.
    await context.queryClient.invalidateQueries()
    // An account waiting out its deletion's cool-off: the server sent it to the security page, to cancel.
    if (search.deletion)
      notify('info', 'Your account is scheduled for deletion', 'You can cancel the deletion on this page.')
    else notify('success', 'Login successful')
    throw redirect({ href: safeReturnPath(search.redirect), replace: true })
  },
  head: () => ({ meta: [{ title: 'Signing in | SkillForge' }] }),
  component: AuthCallbackPage,
})

function AuthCallbackPage() {
  const { error, school, redirect: returnTo } = Route.useSearch()
  return (
    <AuthCard title="Sign-in failed">
      <FormAlert>{error}</FormAlert>
      {school ? <SchoolSignIn slug={school} redirect={safeReturnPath(returnTo)} /> : null}
      <Link to="/login" className={button()}>
        Back to sign-in
      </Link>
    </AuthCard>
  )
}
