// The account page's E-mail preferences: whether a person's courses' news (a dripped section opening, a live session
// scheduled for a course they hold) comes by e-mail. Receipts, sign-in mails and what they asked for (a live
// session's invitation and reminder) always come. The server keeps the choice; the mails' footer links here.
import { useMutation, useQuery } from '@tanstack/react-query'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { css } from '#styled-system/css'
import { ErrorState, LoadingState } from '../ui/states.tsx'
import { ToggleSwitch, useSwitchSaved } from '../ui/ToggleSwitch.tsx'
import { SectionCard } from './SectionCard.tsx'

export function MailPreferencesSection() {
  const trpc = useTRPC()
  const preferences = useQuery(trpc.profile.mailPreferences.queryOptions())
  const saved = useSwitchSaved(trpc.profile.mailPreferences.queryKey(), (result: { courseUpdates: boolean }) =>
    result.courseUpdates
      ? 'You will get your courses’ news by e-mail.'
      : 'You will no longer get your courses’ news by e-mail.',
  )
  const save = useMutation(trpc.profile.setMailPreferences.mutationOptions(saved))
  return (
    <SectionCard
      title="E-mail preferences"
      description="Receipts, sign-in e-mails and the invitations and reminders of live sessions you registered for always come."
    >
      {preferences.isPending ? (
        <LoadingState label="Loading your e-mail preferences…" />
      ) : preferences.isError ? (
        <ErrorState
          title="Could not load your e-mail preferences"
          error={preferences.error}
          onRetry={() => preferences.refetch()}
        />
      ) : (
        <div className={css({ display: 'flex', flexDir: 'column', gap: '2' })}>
          <ToggleSwitch
            checked={save.isPending ? (save.variables?.courseUpdates ?? false) : preferences.data.courseUpdates}
            disabled={save.isPending}
            onChange={(courseUpdates) => save.mutate({ courseUpdates })}
            label="Course news by e-mail"
          />
          <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
            New lessons opening in your courses, and live sessions scheduled for them.
          </p>
        </div>
      )}
    </SectionCard>
  )
}
