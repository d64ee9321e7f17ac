import { SelectField } from '../ui/form.tsx'
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
    <SelectField
      label="Filter by status"
      labelHidden
      controlClassName={inputClass}
      value={value ?? ''}
      onChange={(event) => onChange((event.target.value || undefined) as S | undefined)}
    >
      <option value="">{allLabel}</option>
      {statuses.map((status) => (
        <option key={status} value={status}>
          {labels[status]}
        </option>
      ))}
    </SelectField>
  )
}
