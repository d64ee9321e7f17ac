// Labelled form fields with an error line tied to the input (aria-describedby), shared by every form.
import { type InputHTMLAttributes, type ReactNode, useEffect, useId, useRef } from 'react'
import { css, cx } from '../../../styled-system/css'

/** The box every text input and select shares (shop forms, catalogue filters, admin screens). */
export const controlBox = css({
  h: '10',
  px: '3',
  borderWidth: '1px',
  borderColor: 'line',
  borderRadius: 'control',
  bg: 'surface',
  _focusVisible: { outline: '2px solid', outlineColor: 'accent', outlineOffset: '1px' },
})

export const inputClass = cx(
  controlBox,
  css({ w: 'full', fontSize: 'sm', '&[aria-invalid=true]': { borderColor: 'danger' } }),
)

const errorClass = css({ color: 'danger', fontSize: 'sm', mt: '1' })

export function TextField({
  label,
  error,
  hint,
  className,
  ...input
}: InputHTMLAttributes<HTMLInputElement> & { label: string; error?: string; hint?: ReactNode }) {
  const id = useId()
  const describedBy = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ')
  return (
    <div className={cx(css({ display: 'flex', flexDir: 'column', gap: '1' }), className)}>
      <label htmlFor={id} className={css({ fontSize: 'sm', fontWeight: 'medium' })}>
        {label}
      </label>
      <input
        id={id}
        className={inputClass}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        {...input}
      />
      {hint ? (
        <p id={`${id}-hint`} className={css({ fontSize: 'xs', color: 'fg.muted' })}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className={errorClass}>
          {error}
        </p>
      ) : null}
    </div>
  )
}

export function CheckboxField({
  label,
  error,
  ...input
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & { label: ReactNode; error?: string }) {
  const id = useId()
  return (
    <div>
      <div className={css({ display: 'flex', alignItems: 'center', gap: '2' })}>
        <input
          id={id}
          type="checkbox"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          className={css({ w: '4', h: '4', accentColor: 'accent' })}
          {...input}
        />
        <label htmlFor={id} className={css({ fontSize: 'sm' })}>
          {label}
        </label>
      </div>
      {error ? (
        <p id={`${id}-error`} className={errorClass}>
          {error}
        </p>
      ) : null}
    </div>
  )
}

const alertBase = css({ p: '3', borderRadius: 'control', fontSize: 'sm', borderWidth: '1px' })
const alertError = css({ bg: 'red.50', borderColor: 'red.200', color: 'danger' })
const alertSuccess = css({ bg: 'green.50', borderColor: 'green.200', color: 'success' })

/** A form-level message (role=alert so screen readers announce it). */
export function FormAlert({ children, kind = 'error' }: { children: ReactNode; kind?: 'error' | 'success' }) {
  return (
    <div
      role={kind === 'error' ? 'alert' : 'status'}
      className={cx(alertBase, kind === 'error' ? alertError : alertSuccess)}
    >
      {children}
    </div>
  )
}

/**
 * After a submit that found field errors, focus the first invalid field: a screen reader then reads its label and
 * its error (aria-describedby), and a sighted keyboard user is at the field to fix. Pass the errors object, which
 * each failed submit replaces; returns the form's ref.
 */
export function useFocusFirstInvalid(errors: object) {
  const form = useRef<HTMLFormElement>(null)
  useEffect(() => {
    if (!Object.values(errors).some(Boolean)) return
    form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus()
  }, [errors])
  return form
}
