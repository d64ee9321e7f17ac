// /handoff: a school's own domain handed its sign-in to the platform's host (decision 0063), so the learner typed
// their password here, never under the school's name. Signed in (the layout sent them through the log-in), they
// continue to the school's site: a plain form post (it works before the page's JavaScript arrives) whose answer
// carries a one-time code to the domain (src-server/http/sign-in-handoff.ts).
import { useQuery } from '@tanstack/react-query'
import { createFileRoute, Link } from '@tanstack/react-router'
import { AuthCard, authLink } from '#client/components/auth/AuthCard.tsx'
import { button } from '#client/components/ui/button.ts'
import { CheckboxField } from '#client/components/ui/form.tsx'
import { EmptyState, ErrorState, LoadingState } from '#client/components/ui/states.tsx'
import { optionalText, searchParams } from '#client/lib/search-params.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { HANDOFF_ISSUE_PATH, safeReturnPath } from '#shared/auth.ts'
import { css } from '#styled-system/css'

const routeSearch = searchParams({ site: optionalText, challenge: optionalText, next: optionalText })

export const Route = createFileRoute('/_auth/handoff')({
  validateSearch: routeSearch,
  loaderDeps: ({ search }) => ({ site: search.site }),
  loader: ({ context: { queryClient, trpc }, deps }) =>
    deps.site ? queryClient.prefetchQuery(trpc.domains.handoffTarget.queryOptions({ site: deps.site })) : null,
  head: () => ({ meta: [{ title: 'Continue signing in | SkillForge' }] }),
  component: HandoffPage,
})

function HandoffPage() {
  const { site, challenge, next } = Route.useSearch()
  if (!site || !challenge) {
    return (
      <AuthCard title="Nothing to continue to">
        <EmptyState title="This sign-in link is incomplete">
          <p>
            Start again from the school’s site, or{' '}
            <Link to="/" className={authLink}>
              go to the home page
            </Link>
            .
          </p>
        </EmptyState>
      </AuthCard>
    )
  }
  return <ContinueCard site={site} challenge={challenge} next={safeReturnPath(next)} />
}

function ContinueCard({ site, challenge, next }: { site: string; challenge: string; next: string }) {
  const trpc = useTRPC()
  const target = useQuery(trpc.domains.handoffTarget.queryOptions({ site }))
  if (target.isPending) return <LoadingState label="Loading where you are signing in…" />
  if (target.isError) {
    return (
      <AuthCard title="Could not continue">
        <ErrorState title="This sign-in cannot continue" error={target.error} onRetry={() => target.refetch()} />
      </AuthCard>
    )
  }
  const { name } = target.data
  return (
    <AuthCard title={`Continue to ${name}`} subtitle={`You are signed in. Continue to sign in on ${site}.`}>
      <form method="post" action={HANDOFF_ISSUE_PATH} className={css({ display: 'flex', flexDir: 'column', gap: '4' })}>
        <input type="hidden" name="site" value={site} />
        <input type="hidden" name="challenge" value={challenge} />
        <input type="hidden" name="next" value={next} />
        <CheckboxField label="Remember me" name="remember" />
        <button type="submit" className={button({ size: 'lg' })}>
          Continue to {name}
        </button>
      </form>
    </AuthCard>
  )
}
