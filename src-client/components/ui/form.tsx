// The one forms module: labelled fields (text, text area, select, checkbox) with an error and a hint tied to the
// control (aria-invalid, aria-describedby), form alerts and the focus on the first invalid field, shared by every
// form. Fields pass their other attributes to the control, so a native form's uncontrolled `defaultValue` and `name`
// stay as they are (a server-rendered page keeps what was typed before hydration).
import {
  type ChangeEvent,
  type InputHTMLAttributes,
  type KeyboardEvent,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from 'react'
import { css, cx } from '#styled-system/css'

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

/** How a control looks disabled and invalid. */
export const controlStates = css({
  _disabled: { bg: 'canvas', color: 'fg.muted' },
  '&[aria-invalid=true]': { borderColor: 'danger' },
})

export const inputClass = cx(controlBox, css({ w: 'full', fontSize: 'sm' }), controlStates)

/**
 * A file picker: the reset (preflight) takes the border and padding off the browser's "Choose File" button, which
 * then ran into "No file chosen" as plain text; it gets back the outline and a tap-sized height of the other buttons.
 */
export const fileInputClass = css({
  fontSize: 'sm',
  maxW: 'full',
  '&::file-selector-button': {
    mr: '3',
    px: '3',
    py: '2',
    minH: '11',
    borderRadius: 'control',
    borderWidth: '1px',
    borderColor: 'line',
    bg: 'surface',
    cursor: 'pointer',
  },
  _focusVisible: { outline: '2px solid', outlineColor: 'accent', outlineOffset: '2px' },
})

/** A multi-line text box (admin screens, briefs); shop dialogs pass their own height over `inputClass`. */
export const textareaClass = css({
  minH: '24',
  p: '3',
  borderWidth: '1px',
  borderColor: 'line',
  borderRadius: 'control',
  fontWeight: 'normal',
  _focusVisible: { outline: '2px solid', outlineColor: 'accent', outlineOffset: '1px' },
  '&[aria-invalid=true]': { borderColor: 'danger' },
})

/** The plain box of a message (service-order thread, delivery notes, revision requests). */
const choiceCard = css({
  display: 'flex',
  gap: '3',
  alignItems: 'flex-start',
  p: '4',
  borderWidth: '1px',
  borderColor: 'line',
  borderRadius: 'control',
  bg: 'surface',
  cursor: 'pointer',
  '&:has(input:checked)': { borderColor: 'accent', bg: 'brand.50' },
  '&:has(input:disabled)': { opacity: 0.6, cursor: 'not-allowed' },
})

export const messageArea = css({ minH: '20', p: '3', borderWidth: '1px', borderColor: 'line', borderRadius: 'control' })

const fieldStack = css({ display: 'flex', flexDir: 'column', gap: '1' })
const labelClass = css({ fontSize: 'sm', fontWeight: 'medium' })
const hiddenLabel = css({ srOnly: true })
const hintClass = css({ fontSize: 'xs', color: 'fg.muted' })
const errorClass = css({ color: 'danger', fontSize: 'sm', fontWeight: 'normal', mt: '1' })

/** What every labelled field takes besides its control's own attributes. */
type FieldOwn = {
  label: ReactNode
  /** The field's error: aria-invalid, and a message under it named by aria-describedby. */
  error?: string
  /** A note under the field, also named by aria-describedby. */
  hint?: ReactNode
  /** The box around label, control and messages; replaces the default column. */
  className?: string
  /** The control's class; replaces the default look. */
  controlClassName?: string
  /** A label for screen readers only (a filter whose options say what it filters). */
  labelHidden?: boolean
}

/** The control's id and its aria attributes for the field's error and hint. */
function useFieldControl(error: string | undefined, hint: ReactNode, givenId?: string) {
  const generated = useId()
  // A field given an id (a page's anchors, tests) keeps it, and its label and messages follow it.
  const id = givenId ?? generated
  const describedBy = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ')
  return {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy || undefined,
  } as const
}

/** Label, control (children), hint and error in one box. */
function FieldFrame({
  id,
  label,
  error,
  hint,
  className,
  labelHidden,
  children,
}: Omit<FieldOwn, 'controlClassName'> & { id: string; children: ReactNode }) {
  return (
    <div className={className ?? fieldStack}>
      <label htmlFor={id} className={labelHidden ? hiddenLabel : labelClass}>
        {label}
      </label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className={hintClass}>
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

/**
 * A field's props parted: the frame's (label, messages, box), the control's class, and the control's own attributes
 * after its id and aria ties (so an attribute the caller passes still wins).
 */
function useFieldParts<Control extends object>({
  label,
  error,
  hint,
  className,
  controlClassName,
  labelHidden,
  ...own
}: Control & FieldOwn) {
  const givenId = 'id' in own && typeof own.id === 'string' ? own.id : undefined
  const control = useFieldControl(error, hint, givenId)
  return {
    frame: { id: control.id, label, error, hint, className, labelHidden },
    controlClassName,
    control: { ...control, ...own, id: control.id },
  }
}

type TextFieldProps = InputHTMLAttributes<HTMLInputElement> & FieldOwn

export function TextField(props: TextFieldProps) {
  const { frame, controlClassName, control } = useFieldParts(props)
  return (
    <FieldFrame {...frame}>
      <input className={controlClassName ?? (control.type === 'file' ? fileInputClass : inputClass)} {...control} />
    </FieldFrame>
  )
}

/** A required e-mail address the browser may fill in (sign-up, log-in, password reset). */
export function EmailField(props: Partial<TextFieldProps>) {
  return <TextField label="Email" name="email" type="email" autoComplete="email" required {...props} />
}

/** A password: `current-password` to sign in with one, `new-password` to choose one. */
export function PasswordField({
  autoComplete,
  ...props
}: Omit<TextFieldProps, 'type' | 'autoComplete'> & { autoComplete: 'current-password' | 'new-password' }) {
  return <TextField type="password" autoComplete={autoComplete} {...props} />
}

/**
 * A one-time code: an authenticator app's, an e-mailed one or a recovery code. The browser may fill it in; it is
 * taken as typed, never capitalised or spell-checked.
 */
export function CodeField(props: Omit<TextFieldProps, 'name' | 'autoComplete'>) {
  return (
    <TextField
      name="code"
      autoComplete="one-time-code"
      autoCapitalize="off"
      spellCheck={false}
      maxLength={32}
      {...props}
    />
  )
}

export function TextAreaField(props: TextareaHTMLAttributes<HTMLTextAreaElement> & FieldOwn) {
  const { frame, controlClassName, control } = useFieldParts(props)
  return (
    <FieldFrame {...frame}>
      <textarea className={controlClassName ?? textareaClass} {...control} />
    </FieldFrame>
  )
}

/** A labelled select; its options are the children. */
export function SelectField(props: SelectHTMLAttributes<HTMLSelectElement> & FieldOwn) {
  const { frame, controlClassName, control } = useFieldParts(props)
  const select = useEarlyChoice(props.value)
  return (
    <FieldFrame {...frame}>
      <select ref={select} className={controlClassName ?? inputClass} {...control} />
    </FieldFrame>
  )
}

/**
 * Keeps a choice made before hydration in a controlled select (the ref goes on the select). A server-rendered page
 * can be used before its JavaScript runs: the select then shows the visitor's choice while React's state still holds
 * the first `value`, and the next render would quietly put that back (a price in one currency, an order in another).
 * Once mounted, a shown option other than `value` is handed to the select's onChange as the change it was. A select
 * mounted on the client always shows `value`, so this does nothing there.
 * A layout effect, not a passive one: it runs in the commit that hydrates the select, and React renders the change
 * before the browser runs anything else. A passive effect runs a task later, and a button pressed before hydration
 * (replayed by src-server/http/early-clicks.ts once it is hydrated) could act in between, on the first `value`: on a
 * slow phone the course went into the cart in dollars with pounds shown chosen.
 * Not when the select's own event is being dispatched: React hydrates a page part at once when an event reaches it
 * (the `input` a choice fires just before its `change`), and that event goes on to onChange itself. Handed over here
 * too, the choice was taken twice, and React put the first `value` back on the select between the two (the URL had not
 * changed yet), so the second, real one undid it: a category chosen as the catalogue hydrated was not applied.
 * (A radio is unlike it: React reads its checked state at hydration as the last known, so the click that hydrated it
 * changes nothing React sees, and useEarlyCheck must hand it over.)
 */
export function useEarlyChoice(value: SelectHTMLAttributes<HTMLSelectElement>['value']) {
  const ref = useRef<HTMLSelectElement>(null)
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, for the value the page was hydrated with.
  useLayoutEffect(() => {
    const select = ref.current
    if (!select || value === undefined || Array.isArray(value) || selectEventInFlight(select)) return
    const first = String(value)
    const offered = Array.from(select.options, (option) => option.value)
    if (select.value !== first && offered.includes(first)) select.dispatchEvent(new Event('change', { bubbles: true }))
  }, [])
  return ref
}

/** True while an event aimed at the select is dispatched: React hands that one to its onChange itself. */
function selectEventInFlight(select: HTMLSelectElement): boolean {
  // window.event is the event whose listeners are running (React hydrates from inside its root listener); deprecated
  // for handlers, which are given the event, but the one way an effect can tell.
  return (window as { event?: Event }).event?.target === select
}

/**
 * useEarlyChoice for a radio (the ref goes on the input): one chosen before hydration is shown checked while the
 * group's state holds another, so it is taken as chosen, in the hydrating commit for the same reason. A radio mounted
 * on the client is checked only as `checked` says, so this does nothing there.
 */
export function useEarlyCheck(checked: boolean, onChoose: () => void) {
  const ref = useRef<HTMLInputElement>(null)
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, for the state the page was hydrated with.
  useLayoutEffect(() => {
    if (ref.current?.checked && !checked) onChoose()
  }, [])
  return ref
}

/**
 * A select's options, one for each of `items`: its value (the item itself, as text, unless `value` says) and its label
 * (the item itself unless `label` says). A missing list (still loading) gives none.
 */
export function Options<Item>({
  items,
  value = String,
  label = String,
}: {
  items: readonly Item[] | undefined
  value?: (item: Item) => string
  label?: (item: Item) => ReactNode
}) {
  return (items ?? []).map((item) => {
    const text = value(item)
    return (
      <option key={text} value={text}>
        {label(item)}
      </option>
    )
  })
}

export function CheckboxField({
  label,
  error,
  className,
  ...input
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & { label: ReactNode; error?: string; className?: string }) {
  const control = useFieldControl(error, undefined)
  return (
    <div className={className}>
      {/* The box sits on the label's first line (a 20 px line, a 16 px box): a label that wraps (a consent, a webhook's
          event with its description) keeps it by its start. */}
      <div className={css({ display: 'flex', alignItems: 'flex-start', gap: '2' })}>
        <input
          type="checkbox"
          className={css({ w: '4', h: '4', mt: '0.5', flexShrink: 0, accentColor: 'accent' })}
          {...control}
          {...input}
        />
        <label htmlFor={control.id} className={css({ fontSize: 'sm' })}>
          {label}
        </label>
      </div>
      {error ? (
        <p id={`${control.id}-error`} className={errorClass}>
          {error}
        </p>
      ) : null}
    </div>
  )
}

const alertBase = css({ p: '3', borderRadius: 'control', fontSize: 'sm', borderWidth: '1px' })
const alertError = css({ bg: 'red.50', borderColor: 'red.200', color: 'danger' })
const alertSuccess = css({ bg: 'green.50', borderColor: 'green.200', color: 'success' })

/**
 * A form-level message (role=alert so screen readers announce it); nothing while there is no message. `takeFocus`:
 * the message replaces the form that had focus (a sign-up or reset link sent): focus, which fell to the
 * page with the removed button, goes to the message, so a keyboard or screen-reader user is where the page went on.
 */
export function FormAlert({
  children,
  kind = 'error',
  takeFocus = false,
}: {
  children: ReactNode
  kind?: 'error' | 'success'
  takeFocus?: boolean
}) {
  const alert = useRef<HTMLDivElement>(null)
  const shown = !(children == null || children === false || children === '')
  useEffect(() => {
    const lost = document.activeElement === null || document.activeElement === document.body
    if (takeFocus && shown && lost) alert.current?.focus()
  }, [takeFocus, shown])
  if (!shown) return null
  return (
    <div
      ref={alert}
      tabIndex={takeFocus ? -1 : undefined}
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
 * each failed submit replaces; returns the form's ref. A list with no value of its own to mark invalid (a brief's
 * people) marks the button that adds to it with data-invalid="true" and describes it by the list's message.
 */
export function useFocusFirstInvalid(errors: object) {
  const form = useRef<HTMLFormElement>(null)
  useEffect(() => {
    if (!Object.values(errors).some(Boolean)) return
    form.current?.querySelector<HTMLElement>('[aria-invalid="true"], [data-invalid="true"]')?.focus()
  }, [errors])
  return form
}

/** Keys that change a closed select's value without opening its list (Chromium on Linux and Windows). */
const SELECT_STEP_KEYS = new Set([
  'ArrowUp',
  'ArrowDown',
  'ArrowLeft',
  'ArrowRight',
  'Home',
  'End',
  'PageUp',
  'PageDown',
])

/**
 * Props for a select that acts as soon as a value is chosen (a team member's role, an order's assignee). A pick with
 * the mouse, or from the opened list, acts at once. An arrow key or a letter on the closed select also changes its
 * value at once, so a keyboard user looking through the options would act on every one passed: such a change is
 * only shown, and Enter or leaving the field acts on it (Escape goes back). While `pending` (the last choice is being
 * saved) it is aria-disabled, as whilePending makes a control, and keeps the focus: a choice then is not taken and the
 * saved value shows again.
 */
export function useActOnChoice(value: string, act: (value: string) => void, pending = false) {
  const [shown, setShown] = useState<string | null>(null)
  const stepping = useRef(false)
  const settle = () => {
    if (shown !== null && shown !== value && !pending) act(shown)
    setShown(null)
  }
  return {
    value: shown ?? value,
    'aria-disabled': pending || undefined,
    onKeyDown: (event: KeyboardEvent<HTMLSelectElement>) => {
      if (event.key === 'Enter' && shown !== null) {
        event.preventDefault()
        settle()
      } else if (event.key === 'Escape' && shown !== null) {
        event.preventDefault()
        setShown(null)
      }
      const letter = event.key.length === 1 && event.key !== ' '
      stepping.current = !event.altKey && !event.metaKey && (SELECT_STEP_KEYS.has(event.key) || letter)
    },
    onMouseDown: () => {
      stepping.current = false
    },
    onChange: (event: ChangeEvent<HTMLSelectElement>) => {
      const next = event.target.value
      if (pending) {
        stepping.current = false
        setShown(null)
        return
      }
      if (stepping.current) {
        stepping.current = false
        setShown(next)
        return
      }
      setShown(null)
      if (next !== value) act(next)
    },
    onBlur: settle,
  }
}

/**
 * A team member's role, changed when chosen (useActOnChoice: with the keyboard, on Enter or on leaving the field, so
 * stepping through the options saves none of them). The staff's Team page and a school's team page.
 */
export function RoleSelect<Role extends string>({
  label,
  role,
  roles,
  roleLabel,
  pending,
  onChoose,
  className,
  controlClassName,
}: {
  label: string
  /** The saved role (a staff member's is one of `roles` whenever the select is shown). */
  role: string
  roles: readonly Role[]
  roleLabel: (role: Role) => ReactNode
  pending: boolean
  onChoose: (role: Role) => void
  className?: string
  controlClassName?: string
}) {
  // The select only offers `roles`, so its value is one of them.
  const choice = useActOnChoice(role, (value) => onChoose(value as Role), pending)
  return (
    <SelectField label={label} labelHidden className={className} controlClassName={controlClassName} {...choice}>
      <Options items={roles} label={roleLabel} />
    </SelectField>
  )
}

/** One choice of a radio group drawn as a bordered card: the radio, its label and a line under it (payment methods,
 * End membership). */
export function ChoiceCard({
  name,
  value,
  checked,
  disabled = false,
  onChoose,
  label,
  detail,
}: {
  name: string
  value: string
  checked: boolean
  disabled?: boolean
  onChoose: () => void
  label: string
  detail: string
}) {
  const radio = useEarlyCheck(checked, onChoose)
  return (
    <label className={choiceCard}>
      <input
        ref={radio}
        type="radio"
        name={name}
        value={value}
        checked={checked}
        disabled={disabled}
        onChange={onChoose}
        className={css({ mt: '1' })}
      />
      <span>
        <span className={css({ display: 'block', fontWeight: 'semibold' })}>{label}</span>
        <span className={css({ display: 'block', fontSize: 'sm', color: 'fg.muted' })}>{detail}</span>
      </span>
    </label>
  )
}
