// Catalogue filters. Every option shows how many courses it would give (facet counts from the server); a search
// matching more courses than the server counts shows the options without counts (decision 0022).

import type { ReactNode } from 'react'
import type { CatalogueSearch } from '#client/lib/catalogue-search.ts'
import type { RouterOutputs } from '#client/lib/types.ts'
import { DURATION_BANDS, PRICE_BANDS, SORT_OPTIONS } from '#shared/constants.ts'
import { css, cx } from '#styled-system/css'
import { controlBox, Options, SelectField, useEarlyCheck } from '../ui/form.tsx'

type Facets = RouterOutputs['catalog']['search']['facets']
export type FilterChange = (patch: Partial<CatalogueSearch>) => void

/** " (12)", or nothing when the server did not count. */
const countSuffix = (count: number | null) => (count === null ? '' : ` (${count})`)

const label = css({ display: 'grid', gap: '1', fontSize: 'sm', fontWeight: 'medium' })
const select = cx(controlBox, css({ minW: '44' }))

/** Category, sort and price: the bar above the results. */
export function FilterBar({
  search,
  facets,
  onChange,
  showCategory = true,
}: {
  search: CatalogueSearch
  facets: Facets
  onChange: FilterChange
  showCategory?: boolean
}) {
  return (
    <div className={css({ display: 'flex', gap: '4', flexWrap: 'wrap', alignItems: 'end' })}>
      {showCategory ? (
        <SelectField
          label="Category"
          className={label}
          controlClassName={select}
          value={search.category ?? ''}
          onChange={(e) => onChange({ category: e.target.value || undefined })}
        >
          <option value="">All Categories{countSuffix(facets.allCategories)}</option>
          <Options items={facets.categories} value={(c) => c.slug} label={(c) => `${c.name}${countSuffix(c.count)}`} />
        </SelectField>
      ) : null}
      <SelectField
        label="Sort by"
        className={label}
        controlClassName={select}
        value={search.sort ?? 'popular'}
        onChange={(e) =>
          onChange({ sort: e.target.value === 'popular' ? undefined : (e.target.value as CatalogueSearch['sort']) })
        }
      >
        <Options items={Object.entries(SORT_OPTIONS)} value={([value]) => value} label={([, text]) => text} />
      </SelectField>
      <SelectField
        label="Price"
        className={label}
        controlClassName={select}
        value={search.price ?? ''}
        onChange={(e) => onChange({ price: (e.target.value || undefined) as CatalogueSearch['price'] })}
      >
        <option value="">All Prices</option>
        <Options
          items={Object.entries(PRICE_BANDS)}
          value={([value]) => value}
          label={([value, band]) => `${band.label}${countSuffix(facets.price[value as keyof typeof PRICE_BANDS])}`}
        />
      </SelectField>
    </div>
  )
}

const optionLabel = css({ display: 'flex', gap: '2', fontSize: 'sm' })

/** One filter option; a click before hydration is applied once the page hydrates (useEarlyCheck). */
function FilterOption({
  name,
  checked,
  onSelect,
  children,
}: {
  name: string
  checked: boolean
  onSelect: () => void
  children: ReactNode
}) {
  const radio = useEarlyCheck(checked, onSelect)
  return (
    <label className={optionLabel}>
      <input ref={radio} type="radio" name={name} checked={checked} onChange={onSelect} />
      {children}
    </label>
  )
}

function RadioGroup<T extends string | number>({
  legend,
  name,
  value,
  options,
  onSelect,
}: {
  legend: string
  name: string
  value: T | undefined
  options: { value: T; label: string; count: number | null }[]
  onSelect: (value: T | undefined) => void
}) {
  return (
    <fieldset className={css({ display: 'grid', gap: '2' })}>
      <legend className={css({ fontWeight: 'semibold', mb: '2' })}>{legend}</legend>
      <FilterOption name={name} checked={value === undefined} onSelect={() => onSelect(undefined)}>
        {' '}
        Any
      </FilterOption>
      {options.map((option) => (
        <FilterOption
          key={option.value}
          name={name}
          checked={value === option.value}
          onSelect={() => onSelect(option.value)}
        >
          {option.label}{' '}
          {option.count === null ? null : (
            <span className={css({ color: 'fg.muted', ml: 'auto' })}>({option.count})</span>
          )}
        </FilterOption>
      ))}
    </fieldset>
  )
}

/** Rating and duration: the sidebar. */
export function FilterSidebar({
  search,
  facets,
  onChange,
}: {
  search: CatalogueSearch
  facets: Facets
  onChange: FilterChange
}) {
  return (
    <aside aria-label="More filters" className={css({ display: 'grid', gap: '6', alignContent: 'start' })}>
      <RadioGroup
        legend="Rating"
        name="rating"
        value={search.rating}
        options={facets.rating.map((r) => ({ value: r.floor, label: `${r.floor} & up`, count: r.count }))}
        onSelect={(rating) => onChange({ rating })}
      />
      <RadioGroup
        legend="Duration"
        name="duration"
        value={search.duration}
        options={Object.entries(DURATION_BANDS).map(([value, band]) => ({
          value: value as keyof typeof DURATION_BANDS,
          label: band.label,
          count: facets.duration[value as keyof typeof DURATION_BANDS],
        }))}
        onSelect={(duration) => onChange({ duration })}
      />
    </aside>
  )
}
