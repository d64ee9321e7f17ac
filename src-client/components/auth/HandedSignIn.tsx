// On a school's own domain no password is typed (decision 0063): log-in and sign-up are handed to the platform's
// sign-in page, which sends the learner straight back here signed in (src-server/http/sign-in-handoff.ts). A plain
// link, so it works before the page's JavaScript arrives.
import { useQuery } from '@tanstack/react-query'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { HANDOFF_START_PATH } from '#shared/auth.ts'
import { css } from '#styled-system/css'
import { button } from '../ui/button.ts'

/** Whether this site hands its sign-in to the platform's page (a school's own domain). */
export function usePasswordsHandedOff(): boolean {
  return usePasswordSite() !== null
}

/** The platform's address when passwords are typed there rather than on this site (a school's own domain), else null. */
export function usePasswordSite(): string | null {
  const trpc = useTRPC()
  const providers = useQuery({ ...trpc.auth.providers.queryOptions(), staleTime: Number.POSITIVE_INFINITY })
  return providers.data?.passwordsHandedOff ? providers.data.platformUrl : null
}

export function HandedSignIn({ redirect, signup = false }: { redirect: string; signup?: boolean }) {
  const query = new URLSearchParams({ next: redirect, ...(signup ? { signup: '1' } : {}) })
  return (
    <>
      <a href={`${HANDOFF_START_PATH}?${query}`} className={button({ size: 'lg' })} data-testid="handed-sign-in">
        {signup ? 'Continue to create your account' : 'Continue to sign in'}
      </a>
      <p className={css({ fontSize: 'sm', color: 'fg.muted', textAlign: 'center' })}>
        {signup
          ? 'You create your account on our secure sign-in page and come straight back here, signed in.'
          : 'You enter your password on our secure sign-in page and come straight back here, signed in.'}
      </p>
    </>
  )
}
