// A control whose save is running: aria-disabled, not disabled (a disabled control drops the keyboard's focus to the
// page, WCAG 2.4.3), and its action ignored until the save ends (and a double-click's second click with it). One piece for every such button, select and
// checkbox (the button recipe's `_disabled` style covers aria-disabled too), and a file input whose upload runs.
import type { ChangeEvent } from 'react'

/**
 * Props for the control: `{...whilePending(save.isPending, 'onClick', () => save.mutate(…))}`. A controlled select
 * or checkbox whose change is ignored shows its saved value again; an ignored click is also cancelled, so a submit
 * button sends nothing.
 */
export function whilePending<K extends 'onClick' | 'onChange', E>(
  pending: boolean,
  handler: K,
  act: (event: E) => unknown,
): { 'aria-disabled': true | undefined } & Record<K, (event: E) => void> {
  const guarded = (event: E) => {
    const ignored = handler === 'onClick' ? pending || clickedJustNow(event) : pending
    if (!ignored) act(event)
    else if (handler === 'onClick') (event as { preventDefault?: () => void }).preventDefault?.()
  }
  return { 'aria-disabled': pending || undefined, [handler]: guarded } as {
    'aria-disabled': true | undefined
  } & Record<K, (event: E) => void>
}

/**
 * A second click on the same control within this many milliseconds of one it acted on is the same press (a
 * double-click). `pending` alone misses it: the save's pending state reaches the page a task after the first click
 * (TanStack Query tells React on a timer), and the browser runs a waiting click before timers.
 */
export const SAME_PRESS_MS = 250
const lastAccepted = new WeakMap<object, number>()

/** Whether this click follows one the control acted on less than SAME_PRESS_MS ago; records it when not. */
function clickedJustNow(event: unknown): boolean {
  const { currentTarget, timeStamp } = event as { currentTarget?: unknown; timeStamp?: number }
  if (!currentTarget || typeof currentTarget !== 'object' || typeof timeStamp !== 'number') return false
  const last = lastAccepted.get(currentTarget)
  if (last !== undefined && timeStamp - last >= 0 && timeStamp - last < SAME_PRESS_MS) return true
  lastAccepted.set(currentTarget, timeStamp)
  return false
}

/**
 * Props for a form's submit button while its save runs: `{...submitWhilePending(save.isPending)}`. Its click is
 * cancelled meanwhile — a mouse's, the keyboard's, and Enter in a field of the form, which clicks the form's submit
 * button — so the form is not sent twice; the form's own onSubmit does the saving.
 */
export function submitWhilePending(pending: boolean) {
  return whilePending(pending, 'onClick', () => undefined)
}

/**
 * Props for a file input while its upload runs: `{...pickWhilePending(uploading, (event) => upload(…))}`. The click
 * that opens the picker (a mouse's or the keyboard's) is cancelled meanwhile, and a file dropped on the input is
 * ignored and the input emptied, so no second file is taken while the first uploads.
 */
export function pickWhilePending(pending: boolean, onPick: (event: ChangeEvent<HTMLInputElement>) => unknown) {
  return {
    ...whilePending(pending, 'onClick', () => undefined),
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      if (!pending) onPick(event)
      else event.currentTarget.value = ''
    },
  }
}
