// Choosing 1–5 stars: five native radio buttons in a fieldset (arrow keys move between them, the labels are
// read out), drawn as stars. The course page is server-rendered, so a star can be chosen before it hydrates.
import { useId } from 'react'
import { useEarlyCheck } from '#client/components/ui/form.tsx'
import { Icon } from '#client/components/ui/icons.tsx'
import { css } from '#styled-system/css'

const starLabel = css({
  cursor: 'pointer',
  color: 'gray.300',
  p: '0.5',
  borderRadius: 'control',
  '&[data-on=true]': { color: 'star' },
  '&:has(input:focus-visible)': { outline: '2px solid', outlineColor: 'accent' },
})

export function StarInput({
  value,
  onChange,
  error,
}: {
  value: number
  onChange: (stars: number) => void
  error?: string
}) {
  const id = useId()
  return (
    <fieldset aria-describedby={error ? `${id}-error` : undefined}>
      <legend className={css({ fontSize: 'sm', fontWeight: 'medium', mb: '1' })}>Your rating</legend>
      <div className={css({ display: 'flex', gap: '1' })}>
        {[1, 2, 3, 4, 5].map((stars) => (
          <Star key={stars} name={`${id}-stars`} stars={stars} value={value} onChange={onChange} />
        ))}
      </div>
      {error ? (
        <p id={`${id}-error`} className={css({ color: 'danger', fontSize: 'sm', mt: '1' })}>
          {error}
        </p>
      ) : null}
    </fieldset>
  )
}

/** One star's radio; a star chosen before the course page hydrated is taken once it has (useEarlyCheck). */
function Star({
  name,
  stars,
  value,
  onChange,
}: {
  name: string
  stars: number
  value: number
  onChange: (stars: number) => void
}) {
  const radio = useEarlyCheck(value === stars, () => onChange(stars))
  return (
    <label className={starLabel} data-on={stars <= value}>
      <input
        ref={radio}
        type="radio"
        name={name}
        value={stars}
        checked={value === stars}
        onChange={() => onChange(stars)}
        className={css({ srOnly: true })}
      />
      <Icon name="star" size={28} filled={stars <= value} />
      <span className={css({ srOnly: true })}>
        {stars} {stars === 1 ? 'star' : 'stars'}
      </span>
    </label>
  )
}
