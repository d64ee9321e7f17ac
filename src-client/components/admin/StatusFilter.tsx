import type { ReactNode } from 'react'
import { Options, SelectField } from '../ui/form.tsx'
import { inputClass } from './styles.ts'

/** A select that narrows a list: its label for screen readers only, and the empty option (all) as undefined. */
export function FilterSelect<V extends string>({
  label,
  value,
  onChange,
  children,
}: {
  label: string
  value: V | undefined
  onChange: (value: V | undefined) => void
  /** The options, the first of them the empty one (everything). */
  children: ReactNode
}) {
  return (
    <SelectField
      label={label}
      labelHidden
      controlClassName={inputClass}
      value={value ?? ''}
      onChange={(event) => onChange((event.target.value || undefined) as V | undefined)}
    >
      {children}
    </SelectField>
  )
}

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
    <FilterSelect label="Filter by status" value={value} onChange={onChange}>
      <option value="">{allLabel}</option>
      <Options items={statuses} label={(status) => labels[status]} />
    </FilterSelect>
  )
}
