// The status filter of the admin lists (orders, outbox): a labelled select whose empty choice means every status.
import { css } from '../../../styled-system/css'
import { inputClass } from './styles.ts'

export function StatusFilter<S extends string>({
  value,
  statuses,
  labels,
  allLabel,
  onChange,
}: {
  value: S | undefined
  statuses: readonly S[]
  labels: Record<S, string>
  allLabel: string
  onChange: (status: S | undefined) => void
}) {
  return (
    <label>
      <span className={css({ srOnly: true })}>Filter by status</span>
      <select
        className={inputClass}
        value={value ?? ''}
        onChange={(event) => onChange((event.target.value || undefined) as S | undefined)}
      >
        <option value="">{allLabel}</option>
        {statuses.map((status) => (
          <option key={status} value={status}>
            {labels[status]}
          </option>
        ))}
      </select>
    </label>
  )
}
