// /studio/school: the owner's school (decision 0057) — its name and address (/s/{slug}), its team with a role each
// (change: with the keyboard on Enter or on leaving the field; remove, once confirmed), invitations by e-mail with a
// role, within the plan's team size: open, expired or without room on the plan now, each to resend or withdraw
// (decision 0144). The server checks the owner and the plan on every call and says whether the plan still covers the
// team; this page only shows the answers.
import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute, Link } from '@tanstack/react-router'
import { useState } from 'react'
import { ConfirmDialog } from '#client/components/admin/ConfirmDialog.tsx'
import { SchoolAddress, StudioPage } from '#client/components/studio/StudioPage.tsx'
import { badge } from '#client/components/ui/badge.ts'
import { button } from '#client/components/ui/button.ts'
import { useSubmitForm } from '#client/components/ui/field-errors.tsx'
import { FormAlert, Options, RoleSelect, SelectField, TextField } from '#client/components/ui/form.tsx'
import { TitledSection } from '#client/components/ui/layout.tsx'
import { panel as card, panelHeading as heading } from '#client/components/ui/panel.ts'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { EmptyState, Spinner } from '#client/components/ui/states.tsx'
import { notify, notifyError, reloadThenToast } from '#client/components/ui/toaster.tsx'
import { focusElement } from '#client/lib/focus.ts'
import { SCRIPT_ONLY_FORM } from '#client/lib/native-form.ts'
import type { RouterOutputs } from '#client/lib/types.ts'
import { submitWhilePending, whilePending } from '#client/lib/while-pending.ts'
import { formatDate } from '#shared/dates.ts'
import {
  inviteSchoolMemberInput,
  SCHOOL_MEMBER_ROLES,
  SCHOOL_ROLE_DESCRIPTIONS,
  SCHOOL_ROLE_LABELS,
  schoolSettingsInput,
} from '#shared/schemas/schools.ts'
import { css, cx } from '#styled-system/css'

export const Route = createFileRoute('/studio/school')({
  loader: ({ context }) => context.queryClient.ensureQueryData(context.trpc.schools.mine.queryOptions()),
  head: () => ({ meta: [{ title: 'Your school | SkillForge Studio' }] }),
  errorComponent: routeError('Could not load your school'),
  component: SchoolPage,
})

// A button naming a long e-mail address wraps, breaking inside the address if it must, rather than push a phone's page
// sideways.
const longLabel = css({ overflowWrap: 'anywhere', maxW: 'full' })

const row = css({
  display: 'flex',
  gap: '3',
  flexWrap: 'wrap',
  alignItems: 'center',
  justifyContent: 'space-between',
  py: '2',
  borderBottomWidth: '1px',
  borderColor: 'line',
})

function SchoolPage() {
  const { trpc } = Route.useRouteContext()
  const { data: panel } = useSuspenseQuery(trpc.schools.mine.queryOptions())
  const limit = panel.teamLimit === null ? 'unlimited' : String(panel.teamLimit)
  return (
    <StudioPage
      title="Your school"
      intro={
        <>
          Learners see it at <SchoolAddress slug={panel.school.slug} />.
        </>
      }
      introNamesAddress
    >
      <SettingsForm name={panel.school.name} slug={panel.school.slug} />
      <TitledSection id="team-heading" title="Team" className={card} titleClassName={heading}>
        {panel.teamNotice ? (
          // Not a success, nor an error to fix now: the plan's state, said where the team is counted.
          <p data-testid="team-notice" className={css({ fontWeight: 'medium' })}>
            {panel.teamNotice}
          </p>
        ) : panel.teamLimit === 0 ? null : (
          <p className={css({ color: 'fg.muted' })}>
            {panel.teamSize} of {limit} people on your {panel.planName ?? 'current'} plan (co-instructors of your
            courses count too).
          </p>
        )}
        <Members members={panel.members} />
        <Invites invites={panel.invites} />
        <InviteForm disabled={panel.teamLimit === 0} />
      </TitledSection>
    </StudioPage>
  )
}

function SettingsForm({ name, slug }: { name: string; slug: string }) {
  const { trpc } = Route.useRouteContext()
  const queryClient = useQueryClient()
  const save = useMutation(trpc.schools.saveSettings.mutationOptions())
  const form = useSubmitForm({
    fields: ['name', 'slug'],
    schema: schoolSettingsInput,
    read: (data) => ({ name: data.get('name'), slug: data.get('slug') }),
    send: async (input) => {
      await save.mutateAsync(input)
      await queryClient.invalidateQueries({ queryKey: trpc.schools.pathKey() })
    },
    done: 'School saved',
  })
  return (
    <form {...SCRIPT_ONLY_FORM} {...form.formProps} aria-labelledby="settings-heading" className={card}>
      <h2 id="settings-heading" className={heading}>
        Name and address
      </h2>
      <FormAlert>{form.formError}</FormAlert>
      <TextField
        label="School name"
        name="name"
        required
        maxLength={120}
        defaultValue={name}
        error={form.errors.name}
      />
      <TextField
        label="Address (/s/…)"
        name="slug"
        required
        maxLength={60}
        defaultValue={slug}
        hint="Lower-case letters, digits and hyphens."
        error={form.errors.slug}
      />
      <button type="submit" className={button({})} {...submitWhilePending(save.isPending)}>
        {save.isPending ? <Spinner label="Saving" /> : null}
        {save.isPending ? 'Saving…' : 'Save school'}
      </button>
    </form>
  )
}

/** After a member's or an invitation's row (and the button pressed) goes: focus moves to the team's heading. */
const focusTeamHeading = () => focusElement(document.getElementById('team-heading'))

type Panel = RouterOutputs['schools']['mine']
type Member = Panel['members'][number]
type Invite = Panel['invites'][number]

function Members({ members }: { members: Member[] }) {
  const { trpc } = Route.useRouteContext()
  const queryClient = useQueryClient()
  const [removing, setRemoving] = useState<Member | null>(null)
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.schools.mine.queryKey() })
  const setRole = useMutation(trpc.schools.setRole.mutationOptions(reloadThenToast(refresh, 'Role changed')))
  const remove = useMutation(
    trpc.schools.remove.mutationOptions({
      // The dialog closes first (focus goes back to the Remove button), then the row goes and focus moves on.
      onSuccess: async () => {
        setRemoving(null)
        await refresh()
        focusTeamHeading()
        notify('success', 'Removed from the team')
      },
      onError: (error) => notifyError(error),
    }),
  )
  if (members.length === 0) {
    return (
      <EmptyState title="No team members yet">
        <p>Invite someone below: they accept through the e-mailed link.</p>
      </EmptyState>
    )
  }
  return (
    <>
      <ul aria-label="Team members">
        {members.map((member) => (
          <li key={member.userId} className={row}>
            <span className={css({ overflowWrap: 'anywhere', minW: 0 })}>
              <strong>{member.name || member.email}</strong> ({member.email}) · since{' '}
              {formatDate(member.since, 'medium')}
            </span>
            <span className={css({ display: 'flex', gap: '2', alignItems: 'center', flexWrap: 'wrap' })}>
              <RoleSelect
                label={`Role of ${member.email}`}
                role={member.role}
                roles={SCHOOL_MEMBER_ROLES}
                roleLabel={(role) => SCHOOL_ROLE_LABELS[role]}
                pending={setRole.isPending}
                onChoose={(role) => setRole.mutate({ userId: member.userId, role })}
                className={css({ display: 'flex' })}
                controlClassName={css({
                  borderWidth: '1px',
                  borderColor: 'line',
                  borderRadius: 'md',
                  px: '2',
                  py: '1',
                })}
              />
              <button
                type="button"
                className={cx(button({ variant: 'outline', size: 'sm', wrap: true }), longLabel)}
                onClick={() => setRemoving(member)}
              >
                Remove {member.email}
              </button>
            </span>
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={removing !== null}
        title="Remove from the team?"
        description={`${removing?.name || removing?.email || ''} will no longer work on your school’s courses, earnings or messages, and the API keys they made for it stop working. They are told by e-mail.`}
        confirmLabel="Remove"
        pendingLabel="Removing…"
        pending={remove.isPending}
        onCancel={() => setRemoving(null)}
        onConfirm={() => removing && remove.mutate({ userId: removing.userId })}
      />
    </>
  )
}

const INVITE_STATE = {
  open: { label: 'Open', tone: 'green' },
  expired: { label: 'Expired', tone: 'grey' },
  'no-room': { label: 'Cannot be accepted on your plan', tone: 'yellow' },
} as const

function Invites({ invites }: { invites: Invite[] }) {
  const { trpc } = Route.useRouteContext()
  const queryClient = useQueryClient()
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.schools.mine.queryKey() })
  const cancel = useMutation(
    trpc.schools.cancelInvite.mutationOptions(
      reloadThenToast(async () => {
        await refresh()
        focusTeamHeading()
      }, 'Invitation cancelled'),
    ),
  )
  const resend = useMutation(
    trpc.schools.resendInvite.mutationOptions({
      onSuccess: async (sent) => {
        await refresh()
        notify('success', `Invitation sent again to ${sent.email}`)
      },
      onError: (error) => notifyError(error),
    }),
  )
  if (invites.length === 0) return null
  return (
    <div>
      <h3 className={css({ fontWeight: 'semibold', mb: '2' })}>Invitations</h3>
      <ul aria-label="Invitations">
        {invites.map((invite) => {
          const state = INVITE_STATE[invite.state]
          return (
            <li key={invite.id} className={row} data-testid="school-invite">
              <span className={css({ overflowWrap: 'anywhere', minW: 0 })}>
                {invite.email} · {SCHOOL_ROLE_LABELS[invite.role]} ·{' '}
                {invite.state === 'expired'
                  ? `expired ${formatDate(invite.expiresAt, 'medium')}`
                  : `until ${formatDate(invite.expiresAt, 'medium')}`}{' '}
                <span className={badge({ tone: state.tone })}>{state.label}</span>
              </span>
              <span className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
                {invite.state === 'no-room' ? null : (
                  <button
                    type="button"
                    className={cx(button({ variant: 'outline', size: 'sm', wrap: true }), longLabel)}
                    {...whilePending(resend.isPending, 'onClick', () => resend.mutate({ inviteId: invite.id }))}
                  >
                    Resend invitation to {invite.email}
                  </button>
                )}
                <button
                  type="button"
                  className={cx(button({ variant: 'outline', size: 'sm', wrap: true }), longLabel)}
                  {...whilePending(cancel.isPending, 'onClick', () => cancel.mutate({ inviteId: invite.id }))}
                >
                  {invite.state === 'expired' ? 'Remove' : 'Cancel'} invitation to {invite.email}
                </button>
              </span>
            </li>
          )
        })}
      </ul>
    </div>
  )
}

function InviteForm({ disabled }: { disabled: boolean }) {
  const { trpc } = Route.useRouteContext()
  const queryClient = useQueryClient()
  const invite = useMutation(trpc.schools.invite.mutationOptions())
  const { errors, formError, formProps } = useSubmitForm({
    fields: ['email', 'role'],
    schema: inviteSchoolMemberInput,
    read: (form) => ({ email: form.get('email'), role: form.get('role') }),
    send: async (input, form) => {
      const sent = await invite.mutateAsync(input)
      await queryClient.invalidateQueries({ queryKey: trpc.schools.mine.queryKey() })
      form.reset()
      notify('success', `Invitation sent to ${sent.email}`)
    },
  })
  return (
    <form
      {...SCRIPT_ONLY_FORM}
      {...formProps}
      aria-label="Invite a team member"
      className={css({ display: 'flex', flexDir: 'column', gap: '4' })}
    >
      <h3 className={css({ fontWeight: 'semibold' })}>Invite a team member</h3>
      {disabled ? (
        <FormAlert kind="success">
          Your plan has no team members: <Link to="/pricing">upgrade to Pro</Link> to invite up to 3 people.
        </FormAlert>
      ) : null}
      <FormAlert>{formError}</FormAlert>
      <TextField label="E-mail address" name="email" type="email" required autoComplete="off" error={errors.email} />
      <SelectField label="Role" name="role" defaultValue="instructor" error={errors.role}>
        <Options items={SCHOOL_MEMBER_ROLES} label={(role) => SCHOOL_ROLE_DESCRIPTIONS[role]} />
      </SelectField>
      <button type="submit" className={button({})} {...submitWhilePending(invite.isPending || disabled)}>
        {invite.isPending ? <Spinner label="Sending" /> : null}
        {invite.isPending ? 'Sending…' : 'Send invitation'}
      </button>
    </form>
  )
}
