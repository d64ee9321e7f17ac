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
 * Controls that acted on a click whose save's pending state may not be on the page yet: a double-click's second click
 * is the same press. `pending` alone misses it: TanStack Query tells React on a timer that the save started, and the
 * browser runs a waiting click before timers. The mark is cleared two timer turns later, after that notice's timer
 * (set in the same click, by the act or by the submit it leads to) and the render it causes; no clock is involved.
 */
const actedJustNow = new WeakSet<object>()

/** Whether this click follows one the control acted on before its pending state could show; marks it when not. */
function clickedJustNow(event: unknown): boolean {
  const control = (event as { currentTarget?: unknown }).currentTarget
  if (!control || typeof control !== 'object') return false
  if (actedJustNow.has(control)) return true
  actedJustNow.add(control)
  setTimeout(() => setTimeout(() => actedJustNow.delete(control), 0), 0)
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
