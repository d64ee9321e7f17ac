// The card under an invitation page's heading (course co-instructors, school team). Its own module: the routes'
// error screens (inviteRouteError) use it too, and those load with the app, unlike the acceptance (InviteAcceptance.tsx).
import type { ErrorComponentProps } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { css, cx } from '#styled-system/css'
import { MainAround } from '../layout/MainLandmark.tsx'
import { raisedCard } from '../ui/card.ts'
import { RouteError } from '../ui/RouteError.tsx'

/** A token too short to be one of ours is not sent to the server (the loaders and the page check it). */
export const isPlausibleInviteToken = (token: string) => token.length >= 10

export function InviteCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <MainAround className={css({ display: 'grid', placeItems: 'center', py: '12', px: '4' })}>
      <div className={cx(raisedCard, css({ w: 'full', maxW: 'md', p: '8' }))}>
        <h1 className={css({ fontSize: '2xl', fontWeight: 'bold', mb: '2' })}>{title}</h1>
        {children}
      </div>
    </MainAround>
  )
}

/** An invitation route's error screen: the refusal ("Invitation unavailable") under the page's own heading. */
export function inviteRouteError(title: string) {
  return ({ error }: Pick<ErrorComponentProps, 'error'>) => (
    <InviteCard title={title}>
      <RouteError error={error} title="Invitation unavailable" />
    </InviteCard>
  )
}
