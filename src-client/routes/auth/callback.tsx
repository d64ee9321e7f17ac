import { useQuery } from '@tanstack/react-query'
import { createFileRoute, Link, redirect } from '@tanstack/react-router'
import { AuthCard } from '#client/components/auth/AuthCard.tsx'
import { SchoolSignIn } from '#client/components/auth/SchoolSignIn.tsx'
import { button } from '#client/components/ui/button.ts'
import { FormAlert } from '#client/components/ui/form.tsx'
import { notify } from '#client/components/ui/toaster.tsx'
import { optionalText, searchParams } from '#client/lib/search-params.ts'
import { safeReturnPath } from '#shared/auth.ts'
import { describeSignInFailure } from '#shared/sign-in-failures.ts'

// Where Google, Facebook and a school's sign-in come back to: the server already set the session, or sent a failure's
// code (decision 0144), which the page puts in its own words — text in the address is never shown.
const routeSearch = searchParams({
  redirect: optionalText,
  error: optionalText,
  via: optionalText,
  school: optionalText,
  deletion: optionalText,
})

export const Route = createFileRoute('/auth/callback')({
  validateSearch: routeSearch,
  beforeLoad: async ({ context, search, preload }) => {
    if (preload || search.error) return
    // Signed in: answers cached as a visitor are out of date. Then back to where the visitor started.
    await context.queryClient.invalidateQueries()
    // An account waiting out its deletion's cool-off: the server sent it to the security page, to cancel.
    if (search.deletion)
      notify('info', 'Your account is scheduled for deletion', 'You can cancel the deletion on this page.')
    else notify('success', 'Login successful')
    throw redirect({ href: safeReturnPath(search.redirect), replace: true })
  },
  loaderDeps: ({ search }) => ({ school: search.error ? search.school : undefined }),
  // The school a failure names, by its address: its own name, not text from the address.
  loader: ({ context, deps }) =>
    deps.school
      ? context.queryClient
          .ensureQueryData(context.trpc.schoolSso.forSchool.queryOptions({ slug: deps.school }))
          .catch(() => null)
      : null,
  head: () => ({ meta: [{ title: 'Signing in | SkillForge' }] }),
  component: AuthCallbackPage,
})

function AuthCallbackPage() {
  const { trpc } = Route.useRouteContext()
  const { error, via, school: slug, redirect: returnTo } = Route.useSearch()
  const school = useQuery({ ...trpc.schoolSso.forSchool.queryOptions({ slug: slug ?? '' }), enabled: Boolean(slug) })
  const failure = describeSignInFailure(error, via, school.data)
  return (
    <AuthCard title="Sign-in failed">
      <FormAlert>{`${failure.title}: ${failure.message}`}</FormAlert>
      {/* Held to a school's own sign-in: its button (decision 0143), beside the words that say why. */}
      {slug && error === 'sso_required' ? <SchoolSignIn slug={slug} redirect={safeReturnPath(returnTo)} /> : null}
      <Link to="/login" className={button()}>
        Back to sign-in
      </Link>
    </AuthCard>
  )
}
