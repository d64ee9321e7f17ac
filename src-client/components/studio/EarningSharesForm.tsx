// The owner's table of earnings shares on the publish page: each instructor's percentage of the course's creator
// share, summing to 100 %. The server checks the sum, the team and the owner; future sales split by it (issue 31).
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useRouteContext } from '@tanstack/react-router'
import { type FormEvent, useState } from 'react'
import { button } from '#client/components/ui/button.ts'
import { FormAlert, TextField } from '#client/components/ui/form.tsx'
import { notify, notifyError } from '#client/components/ui/toaster.tsx'
import { SCRIPT_ONLY_FORM } from '#client/lib/native-form.ts'
import { submitWhilePending } from '#client/lib/while-pending.ts'
import { css } from '#styled-system/css'

export interface ShareRow {
  userId: string
  name: string
  percent: number
}

export function EarningSharesForm({ courseId, rows }: { courseId: string; rows: ShareRow[] }) {
  const { trpc } = useRouteContext({ from: '__root__' })
  const queryClient = useQueryClient()
  const [percents, setPercents] = useState<Record<string, string>>(() =>
    Object.fromEntries(rows.map((row) => [row.userId, String(row.percent)])),
  )
  const save = useMutation(
    trpc.studioPublishing.setShares.mutationOptions({
      onSuccess: async () => {
        notify('success', 'Shares saved', 'Sales from now on are split this way.')
        await queryClient.invalidateQueries({ queryKey: trpc.studioPublishing.team.pathKey() })
      },
      onError: (error) => notifyError(error),
    }),
  )
  const values = rows.map((row) => Number(percents[row.userId] ?? row.percent))
  const total = Math.round(values.reduce((sum, value) => sum + (Number.isFinite(value) ? value : 0), 0) * 100) / 100
  const whole = total === 100 && values.every((value) => Number.isFinite(value) && value >= 0 && value <= 100)

  function submit(event: FormEvent) {
    event.preventDefault()
    save.mutate({ courseId, shares: rows.map((row, index) => ({ userId: row.userId, percent: values[index] ?? 0 })) })
  }

  return (
    <form
      {...SCRIPT_ONLY_FORM}
      onSubmit={submit}
      noValidate
      aria-labelledby="shares-title"
      className={css({ mt: '5' })}
    >
      <h3 id="shares-title" className={css({ fontSize: 'md', fontWeight: 'semibold', mb: '1' })}>
        Earnings shares
      </h3>
      <p className={css({ fontSize: 'sm', color: 'fg.muted', mb: '3' })}>
        How this course’s earnings (after the platform fee) are split between its instructors. Changes apply to sales
        from now on.
      </p>
      <div className={css({ display: 'grid', gap: '3', gridTemplateColumns: { base: '1fr', sm: 'repeat(2, 1fr)' } })}>
        {rows.map((row) => (
          <TextField
            key={row.userId}
            label={`${row.name} (%)`}
            type="number"
            inputMode="decimal"
            min={0}
            max={100}
            step={0.01}
            value={percents[row.userId] ?? ''}
            onChange={(event) => setPercents((current) => ({ ...current, [row.userId]: event.target.value }))}
          />
        ))}
      </div>
      <p aria-live="polite" className={css({ fontSize: 'sm', mt: '2' })} data-testid="shares-total">
        Total: {total} %
      </p>
      {!whole ? <FormAlert>The shares must add up to exactly 100 %.</FormAlert> : null}
      <button type="submit" className={button({ size: 'sm' })} {...submitWhilePending(!whole || save.isPending)}>
        {save.isPending ? 'Saving…' : 'Save shares'}
      </button>
    </form>
  )
}
