import { useSession } from '#client/lib/session.ts'
import { fullName } from '#shared/names.ts'
import { css } from '#styled-system/css'
import { ErrorState, LoadingState } from '../ui/states.tsx'
import { AvatarCard } from './AvatarCard.tsx'
import { NameForm } from './NameForm.tsx'
import { SectionCard } from './SectionCard.tsx'

/** Profile card: picture, name and e-mail, with the photo and name editors. */
export function ProfileSection() {
  const { user, isLoading } = useSession()
  if (isLoading) return <LoadingState label="Loading your profile…" />
  if (!user) return <ErrorState title="User not authenticated" />
  return (
    <div className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', md: '1fr 2fr' }, gap: '6' })}>
      <AvatarCard user={user} />
      <SectionCard title="Profile" description="Your name as it appears on your account.">
        <dl className={css({ display: 'grid', gridTemplateColumns: 'auto 1fr', gap: '2', fontSize: 'sm', mb: '5' })}>
          <dt className={css({ color: 'fg.muted' })}>Name</dt>
          <dd data-testid="profile-name">{fullName(user.firstName, user.lastName) || '—'}</dd>
          <dt className={css({ color: 'fg.muted' })}>Email</dt>
          <dd data-testid="profile-email">
            {user.email}
            {user.emailVerified ? null : (
              <span className={css({ ml: '2', color: 'warning', fontSize: 'xs' })}>(not verified)</span>
            )}
          </dd>
        </dl>
        <NameForm user={user} />
      </SectionCard>
    </div>
  )
}
