// The error screen of a route whose loader (or suspended query) failed: the server's message, the outage
// wording during an outage, and Try Again, which runs the route's loaders again. A link the server refuses for good
// (a malformed id, a page that is not there, one the user may not open) gets no Try Again, which could not help, and a
// malformed id is called a link that is not valid rather than the schema's "Invalid UUID".
import { useQueryErrorResetBoundary } from '@tanstack/react-query'
import { type ErrorComponentProps, Link, useRouter, useRouterState } from '@tanstack/react-router'
import { TRPCClientError } from '@trpc/client'
import { useEffect } from 'react'
import { OwnMain } from '#client/components/layout/MainLandmark.tsx'
import { errorCode } from '#client/lib/errors.ts'
import { css } from '#styled-system/css'
import { button } from './button.ts'
import { EmptyState, ErrorState } from './states.tsx'

/** What a route says when its address holds an id the server cannot read (a cut or mistyped link). */
export const INVALID_LINK = 'This link is not valid. Check the address, or go back to where you found it.'

export function RouteError(props: Pick<ErrorComponentProps, 'error'> & { title?: string }) {
  return (
    <OwnMain>
      <RouteErrorState {...props} />
    </OwnMain>
  )
}

function RouteErrorState({ error, title }: Pick<ErrorComponentProps, 'error'> & { title?: string }) {
  const router = useRouter()
  const resetQueryErrors = useQueryErrorResetBoundary().reset
  const href = useRouterState({ select: (state) => state.location.href })
  // Lets useSuspenseQuery fetch again instead of rethrowing the cached error.
  useEffect(() => resetQueryErrors(), [resetQueryErrors])

  // The session ended while the page was open: offer to log in again and come back.
  if (errorCode(error) === 'UNAUTHORIZED') {
    const admin = href.startsWith('/admin')
    return (
      <EmptyState title="Please Log In">
        <Link
          to={admin ? '/admin/login' : '/login'}
          search={{ redirect: href }}
          className={`${button()} ${css({ mt: '4' })}`}
        >
          Log In
        </Link>
      </EmptyState>
    )
  }
  const code = errorCode(error)
  if (code === 'BAD_REQUEST' || code === 'NOT_FOUND' || code === 'FORBIDDEN') {
    const malformed = code === 'BAD_REQUEST' && error instanceof TRPCClientError && Boolean(error.data?.zodError)
    return <ErrorState title={title} error={error} message={malformed ? INVALID_LINK : undefined} />
  }
  return <ErrorState title={title} error={error} onRetry={() => void router.invalidate()} />
}

/** A route's error component with its own title, e.g. `errorComponent: routeError('Could not load orders')`. */
export function routeError(title: string) {
  return ({ error }: Pick<ErrorComponentProps, 'error'>) => <RouteError error={error} title={title} />
}
