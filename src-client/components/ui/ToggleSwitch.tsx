// An on/off switch (Ark UI Switch): a real checkbox underneath, so it works with the keyboard; the ring shows when
// that hidden input has keyboard focus, and the track keeps a 3:1 edge when off (WCAG 1.4.11).
import { Switch } from '@ark-ui/react/switch'
import { type QueryKey, useQueryClient } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { css } from '#styled-system/css'
import { notify, notifyError } from './toaster.tsx'

export function ToggleSwitch({
  checked,
  disabled = false,
  onChange,
  label,
  hideLabel = false,
}: {
  checked: boolean
  disabled?: boolean
  onChange: (checked: boolean) => void
  label: ReactNode
  /** For a switch whose row already says what it is (a table's): the label is for screen readers only. */
  hideLabel?: boolean
}) {
  return (
    <Switch.Root
      checked={checked}
      disabled={disabled}
      onCheckedChange={(details) => onChange(details.checked)}
      className={css({
        display: 'inline-flex',
        alignItems: 'center',
        gap: '3',
        cursor: 'pointer',
        _disabled: { cursor: 'not-allowed', opacity: 0.7 },
      })}
    >
      <Switch.Control
        className={css({
          w: '10',
          h: '6',
          p: '0.5',
          flexShrink: 0,
          borderRadius: 'full',
          bg: 'gray.200',
          borderWidth: '1px',
          borderColor: 'gray.500',
          display: 'inline-flex',
          transition: 'background 0.15s',
          _checked: { bg: 'accent', borderColor: 'accent' },
          _focusVisible: { outline: '2px solid var(--focus-ring)', outlineOffset: '2px' },
        })}
      >
        <Switch.Thumb
          className={css({
            w: '4.5',
            h: '4.5',
            borderRadius: 'full',
            bg: 'white',
            boxShadow: 'card',
            transition: 'translate 0.15s',
            _checked: { translate: '16px 0' },
          })}
        />
      </Switch.Control>
      <Switch.Label className={hideLabel ? css({ srOnly: true }) : css({ fontWeight: 'medium' })}>{label}</Switch.Label>
      <Switch.HiddenInput />
    </Switch.Root>
  )
}

/**
 * The callbacks of a switch's save (spread into its mutation's options): the setting's queries (`refresh`) loaded
 * again, then a toast of what the setting is now (`said`); a refusal is a toast too.
 */
export function useSwitchSaved<Result>(refresh: QueryKey, said: (result: Result) => string) {
  const queryClient = useQueryClient()
  return {
    onSuccess: async (result: Result) => {
      await queryClient.invalidateQueries({ queryKey: refresh })
      notify('success', said(result))
    },
    onError: (error: unknown) => notifyError(error),
  }
}
