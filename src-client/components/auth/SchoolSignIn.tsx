// "Sign in with {school}" on the log-in page (decision 0062): the school named by /login?school={slug}, or the school
// whose own domain the page is on. A plain link: the server runs the school's OpenID Connect flow (/auth/sso/{slug}),
// on this site, and comes back to `redirect`. Nothing when no such school offers single sign-on.
import { useQuery } from '@tanstack/react-query'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { button } from '../ui/button.ts'

export function SchoolSignIn({ slug, redirect }: { slug?: string; redirect: string }) {
  const trpc = useTRPC()
  const onThisSite = useQuery({ ...trpc.auth.providers.queryOptions(), staleTime: Number.POSITIVE_INFINITY })
  const named = useQuery({ ...trpc.schoolSso.forSchool.queryOptions({ slug: slug ?? '' }), enabled: Boolean(slug) })
  const school = slug ? named.data : onThisSite.data?.school
  if (!school) return null
  const href = `/auth/sso/${encodeURIComponent(school.slug)}?redirect=${encodeURIComponent(redirect)}`
  return (
    <a href={href} className={button({ variant: 'outline', size: 'lg' })} data-testid="school-sign-in">
      Sign in with {school.name}
    </a>
  )
}
