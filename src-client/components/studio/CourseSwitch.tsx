// A course setting the owner switches on or off in the studio (Details tab): Premium inclusion, offline saving.
// Co-instructors see the state only.
import type { UseQueryResult } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { ErrorState, LoadingState } from '#client/components/ui/states.tsx'
import { ToggleSwitch } from '#client/components/ui/ToggleSwitch.tsx'
import { css } from '#styled-system/css'

const box = css({
  display: 'flex',
  flexDir: 'column',
  gap: '2',
  p: '4',
  borderWidth: '1px',
  borderColor: 'line',
  borderRadius: 'card',
  bg: 'surface',
})

export function CourseSwitch({
  id,
  heading,
  label,
  setting,
  on,
  saving,
  onChange,
  children,
}: {
  id: string
  heading: string
  label: string
  setting: UseQueryResult<{ canChange: boolean }, unknown>
  on: boolean
  /** While a save runs, another flip is ignored. */
  saving: boolean
  onChange: (on: boolean) => void
  /** What the setting does, under the switch. */
  children: ReactNode
}) {
  const lower = heading.toLowerCase()
  return (
    <section aria-labelledby={`${id}-heading`} className={box}>
      <h2 id={`${id}-heading`} className={css({ fontSize: 'md', fontWeight: 'semibold' })}>
        {heading}
      </h2>
      {setting.isPending ? (
        <LoadingState label={`Loading the ${lower} setting…`} />
      ) : setting.isError ? (
        <ErrorState
          title={`Could not load the ${heading} setting`}
          error={setting.error}
          onRetry={() => setting.refetch()}
        />
      ) : (
        <>
          <ToggleSwitch
            checked={on}
            disabled={!setting.data.canChange}
            onChange={(next) => {
              if (!saving) onChange(next)
            }}
            label={label}
          />
          <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
            {children} {setting.data.canChange ? null : 'Only the course owner can change this.'}
          </p>
        </>
      )}
    </section>
  )
}
