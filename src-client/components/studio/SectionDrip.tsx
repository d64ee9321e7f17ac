// A section's drip schedule (issue 33), in the studio's curriculum builder and staff's course editor: open at once,
// N days after the learner's enrolment, on a date, or the later of both. Saved with drip.setSection. A course whose
// owner has no Pro or Enterprise plan is told where to get one; a schedule set before may still be cleared.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useRef, useState } from 'react'
import { button } from '#client/components/ui/button.ts'
import { TextField } from '#client/components/ui/form.tsx'
import { notify, notifyError } from '#client/components/ui/toaster.tsx'
import { countOf } from '#client/lib/format.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { css } from '#styled-system/css'

const row = css({ display: 'flex', flexWrap: 'wrap', gap: '2', alignItems: 'flex-end', fontSize: 'sm' })
const field = css({ display: 'flex', flexDir: 'column', gap: '1', flex: '1 1 10rem', minW: 0 })

/** The date part of an ISO instant, for a date input (UTC midnight is how dates are saved). */
const dayOf = (iso: string | null) => (iso ? iso.slice(0, 10) : '')

export function SectionDrip({ courseId, sectionId, title }: { courseId: string; sectionId: string; title: string }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const schedule = useQuery(trpc.drip.schedule.queryOptions({ courseId }))
  const [error, setError] = useState<string>()
  const box = useRef<HTMLFieldSetElement>(null)
  const save = useMutation(
    trpc.drip.setSection.mutationOptions({
      onSuccess: (result) => {
        queryClient.setQueryData(trpc.drip.schedule.queryKey({ courseId }), result)
        notify('success', 'Release schedule saved')
      },
      onError: (cause) => notifyError(cause, 'Could not save the release schedule'),
    }),
  )
  if (schedule.isPending) return <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>Loading release schedule…</p>
  if (schedule.isError) return <p className={css({ fontSize: 'sm', color: 'danger' })}>Release schedule unavailable.</p>
  const rule = schedule.data.sections.find((item) => item.sectionId === sectionId)
  const submit = () => {
    const value = (name: string) =>
      box.current?.querySelector<HTMLInputElement>(`input[name="${name}"]`)?.value.trim() ?? ''
    const daysText = value('afterDays')
    const day = value('opensOn')
    const afterDays = daysText === '' ? null : Number(daysText)
    if (afterDays !== null && (!Number.isInteger(afterDays) || afterDays < 1 || afterDays > 3650)) {
      setError('Enter a whole number of days from 1 to 3650, or leave it empty')
      return
    }
    setError(undefined)
    save.mutate({ courseId, sectionId, afterDays, opensAt: day ? new Date(`${day}T00:00:00Z`).toISOString() : null })
  }
  const days = rule?.afterDays ? `${countOf(rule.afterDays, 'day')} after enrolment` : null
  const date = rule?.opensAt ? `on ${dayOf(rule.opensAt)}` : null
  const summary =
    days && date
      ? `Opens at the later of ${days} and ${date}`
      : days || date
        ? `Opens ${days ?? date}`
        : 'Opens at once'
  return (
    <details className={css({ fontSize: 'sm' })}>
      <summary className={css({ cursor: 'pointer', color: 'fg.muted' })}>
        Release: <span data-testid="drip-summary">{summary}</span>
      </summary>
      {schedule.data.planNeeded ? (
        <fieldset className={css({ display: 'grid', gap: '2', py: '2' })}>
          <legend className={css({ srOnly: true })}>Release schedule of {title}</legend>
          <p className={css({ color: 'fg.muted' })}>
            {schedule.data.planNeeded}.{' '}
            <Link to="/pricing" className={css({ textDecoration: 'underline' })}>
              See the plans
            </Link>
          </p>
          {rule ? (
            <button
              type="button"
              className={button({ variant: 'outline', size: 'sm' })}
              aria-busy={save.isPending}
              onClick={() => save.mutate({ courseId, sectionId, afterDays: null, opensAt: null })}
            >
              Open at once
            </button>
          ) : null}
        </fieldset>
      ) : (
        // Not a form: staff's course editor holds this inside its own form.
        <fieldset className={row} ref={box} key={`${rule?.afterDays ?? ''}-${rule?.opensAt ?? ''}`}>
          <legend className={css({ srOnly: true })}>Release schedule of {title}</legend>
          <TextField
            label="Days after enrolment"
            name="afterDays"
            type="number"
            inputMode="numeric"
            min={1}
            max={3650}
            defaultValue={rule?.afterDays ?? ''}
            error={error}
            hint="Empty: no wait"
            className={field}
          />
          <TextField
            label="Opens on (date)"
            name="opensOn"
            type="date"
            defaultValue={dayOf(rule?.opensAt ?? null)}
            hint="Empty: no date"
            className={field}
          />
          <button
            type="button"
            className={button({ variant: 'outline', size: 'sm' })}
            aria-busy={save.isPending}
            onClick={submit}
          >
            Save release
          </button>
        </fieldset>
      )}
    </details>
  )
}
