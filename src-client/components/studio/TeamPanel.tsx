// The owner's team panel on the publish page: co-instructors, open invitations, and an invite-by-e-mail form. The
// plan's team size (Basic none, Pro 3 people, Enterprise unlimited) is enforced by the server.
import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { Link, useRouteContext } from '@tanstack/react-router'
import { type FormEvent, useState } from 'react'
import { button } from '#client/components/ui/button.ts'
import { useFieldErrors } from '#client/components/ui/field-errors.tsx'
import { EmailField } from '#client/components/ui/form.tsx'
import { studioCard as card } from '#client/components/ui/panel.ts'
import { notify, notifyError, toastOutcome } from '#client/components/ui/toaster.tsx'
import { SCRIPT_ONLY_FORM } from '#client/lib/native-form.ts'
import { submitWhilePending, whilePending } from '#client/lib/while-pending.ts'
import { CREATOR_PLAN_LIMITS } from '#shared/creator-plans.ts'
import { formatDate } from '#shared/dates.ts'
import { css } from '#styled-system/css'
import { EarningSharesForm } from './EarningSharesForm.tsx'

const row = css({
  display: 'flex',
  flexWrap: 'wrap',
  gap: '3',
  alignItems: 'center',
  justifyContent: 'space-between',
  py: '2',
})

export function TeamPanel({ courseId }: { courseId: string }) {
  const { trpc } = useRouteContext({ from: '__root__' })
  const queryClient = useQueryClient()
  const { data: team } = useSuspenseQuery(trpc.studioPublishing.team.queryOptions({ courseId }))
  const [email, setEmail] = useState('')
  const fields = useFieldErrors<'email'>()
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.studioPublishing.team.pathKey() })
  const invite = useMutation(
    trpc.studioPublishing.invite.mutationOptions({
      onSuccess: async (result) => {
        setEmail('')
        notify('success', 'Invitation sent', `${result.email} can accept within 7 days.`)
        await refresh()
      },
      onError: (error) => fields.fromError(error, ['email']),
    }),
  )
  const cancel = useMutation(
    trpc.studioPublishing.cancelInvite.mutationOptions({ onSuccess: refresh, onError: (e) => notifyError(e) }),
  )
  const remove = useMutation(
    trpc.studioPublishing.removeCoInstructor.mutationOptions(toastOutcome('Co-instructor removed', refresh)),
  )
  function send(event: FormEvent) {
    event.preventDefault()
    fields.clear()
    invite.mutate({ courseId, email })
  }
  const limit = team.teamLimit === null ? 'unlimited' : String(team.teamLimit)
  // Basic (or no plan) has no co-instructors: said before anyone types an address, as the school's team page does.
  const noTeam = team.teamLimit === 0

  return (
    <section className={card} aria-labelledby="team-title">
      <h2 id="team-title" className={css({ fontSize: 'lg', fontWeight: 'semibold', mb: '1' })}>
        Team
      </h2>
      <p className={css({ fontSize: 'sm', color: 'fg.muted', mb: '3' })}>
        Co-instructors edit this course but cannot change its price, unpublish or delete it.
        {noTeam ? null : ` Your team: ${team.teamSize} of ${limit} people across your courses.`}
      </p>
      {noTeam ? (
        <p data-testid="team-upgrade" className={css({ fontSize: 'sm', mb: '3' })}>
          {team.planName ? `Your ${team.planName} plan has` : 'Without a plan you have'} no co-instructors:{' '}
          <Link to="/pricing" className={css({ color: 'accent', textDecoration: 'underline' })}>
            upgrade to Pro
          </Link>{' '}
          to invite up to {CREATOR_PLAN_LIMITS.pro.teamMembers} people.
        </p>
      ) : null}
      {team.members.length === 0 && team.invites.length === 0 ? (
        <p className={css({ fontSize: 'sm' })}>No co-instructors yet.</p>
      ) : (
        <ul data-testid="team-members">
          {team.members.map((member) => (
            <li key={member.userId} className={row}>
              <span>
                {member.name || member.email} <span className={css({ color: 'fg.muted' })}>({member.email})</span>
              </span>
              <button
                type="button"
                className={button({ variant: 'outline', size: 'sm' })}
                aria-label={`Remove ${member.email}`}
                {...whilePending(remove.isPending, 'onClick', () => remove.mutate({ courseId, userId: member.userId }))}
              >
                Remove
              </button>
            </li>
          ))}
          {team.invites.map((pending) => (
            <li key={pending.id} className={row}>
              <span>
                {pending.email}{' '}
                <span className={css({ color: 'fg.muted', fontSize: 'sm' })}>
                  invited, expires {formatDate(pending.expiresAt, 'medium')}
                </span>
              </span>
              <button
                type="button"
                className={button({ variant: 'outline', size: 'sm' })}
                aria-label={`Cancel the invitation of ${pending.email}`}
                {...whilePending(cancel.isPending, 'onClick', () => cancel.mutate({ courseId, inviteId: pending.id }))}
              >
                Cancel
              </button>
            </li>
          ))}
        </ul>
      )}
      {team.members.length > 0 ? (
        <EarningSharesForm
          // A new member or a removal resets the table to what the server holds.
          key={team.members.map((member) => `${member.userId}:${member.percent}`).join(',')}
          courseId={courseId}
          rows={[
            ...team.shares,
            ...team.members.map((m) => ({ userId: m.userId, name: m.name || m.email, percent: m.percent })),
          ]}
        />
      ) : null}
      {fields.formError ? (
        <p role="alert" className={css({ color: 'danger', fontSize: 'sm', mt: '3' })}>
          {fields.formError}
        </p>
      ) : null}
      <form
        {...SCRIPT_ONLY_FORM}
        ref={fields.formRef}
        onSubmit={send}
        noValidate
        className={css({ display: 'flex', flexWrap: 'wrap', gap: '3', alignItems: 'flex-end', mt: '4' })}
      >
        <div className={css({ flex: '1 1 16rem' })}>
          <EmailField
            label="Invite by e-mail"
            autoComplete="off"
            error={fields.errors.email}
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        </div>
        <button
          type="submit"
          className={button()}
          {...submitWhilePending(invite.isPending || noTeam || email.trim() === '')}
        >
          {invite.isPending ? 'Sending…' : 'Send invitation'}
        </button>
      </form>
    </section>
  )
}
