// The schools whose single sign-on is linked to the account (decision 0062): each one's administrators can sign in as
// it, so the account's owner sees them here and can unlink any. Shown only once one is linked.

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { errorMessage } from '#client/lib/errors.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { whilePending } from '#client/lib/while-pending.ts'
import { formatDate } from '#shared/dates.ts'
import { css } from '#styled-system/css'
import { button } from '../ui/button.ts'
import { ErrorState, LoadingState } from '../ui/states.tsx'
import { notify } from '../ui/toaster.tsx'
import { SectionCard, securityRow } from './SectionCard.tsx'

const TITLE = 'School sign-ins'
const DESCRIPTION =
  'These schools’ sign-ins are linked to your account: their administrators can sign in to it. Unlinking leaves your password as it is.'

export function SchoolSignInsSection() {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const linked = useQuery(trpc.schoolSso.linked.queryOptions())
  const unlink = useMutation(trpc.schoolSso.unlink.mutationOptions())

  async function unlinkSchool(school: { schoolId: string; schoolName: string }) {
    try {
      await unlink.mutateAsync({ schoolId: school.schoolId })
      notify('success', 'Unlinked', `${school.schoolName}’s sign-in no longer signs in to your account.`)
    } catch (caught) {
      notify('error', 'Could not unlink it', errorMessage(caught))
    }
    await queryClient.invalidateQueries({ queryKey: trpc.schoolSso.linked.queryKey() })
  }

  if (linked.isPending) return <LoadingState label="Loading your school sign-ins…" />
  if (linked.isError) {
    return (
      <SectionCard title={TITLE}>
        <ErrorState title="Could not load your school sign-ins" error={linked.error} onRetry={() => linked.refetch()} />
      </SectionCard>
    )
  }
  if (linked.data.length === 0) return null
  return (
    <SectionCard title={TITLE} description={DESCRIPTION}>
      <ul className={css({ display: 'flex', flexDir: 'column', gap: '3' })} aria-label="Linked school sign-ins">
        {linked.data.map((school) => (
          <li key={school.schoolId} className={securityRow}>
            <div className={css({ minW: '0' })}>
              <p className={css({ fontWeight: 'semibold' })}>{school.schoolName}</p>
              <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
                Linked {formatDate(school.linkedAt, 'medium')} · Last used {formatDate(school.lastUsedAt, 'mediumTime')}
              </p>
            </div>
            <button
              type="button"
              className={button({ variant: 'outline', size: 'sm' })}
              {...whilePending(unlink.isPending, 'onClick', () => unlinkSchool(school))}
              aria-label={`Unlink ${school.schoolName}’s sign-in`}
            >
              Unlink
            </button>
          </li>
        ))}
      </ul>
    </SectionCard>
  )
}
