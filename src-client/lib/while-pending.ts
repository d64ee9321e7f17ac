// A control whose save is running: aria-disabled, not disabled (a disabled control drops the keyboard's focus to the
// page, WCAG 2.4.3), and its action ignored until the save ends. One piece for every such button, select and
// checkbox (the button recipe's `_disabled` style covers aria-disabled too).

/**
 * Props for the control: `{...whilePending(save.isPending, 'onClick', () => save.mutate(…))}`. A controlled select
 * or checkbox whose change is ignored shows its saved value again.
 */
export function whilePending<K extends 'onClick' | 'onChange', E>(
  pending: boolean,
  handler: K,
  act: (event: E) => unknown,
): { 'aria-disabled': true | undefined } & Record<K, (event: E) => void> {
  const guarded = (event: E) => {
    if (!pending) act(event)
  }
  return { 'aria-disabled': pending || undefined, [handler]: guarded } as {
    'aria-disabled': true | undefined
  } & Record<K, (event: E) => void>
}
