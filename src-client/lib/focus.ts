// Moving focus after an action that replaces or removes the focused element, so it never falls back to <body>.
import { useLayoutEffect, useRef } from 'react'

/** Focuses an element; a heading or other non-interactive element gets tabIndex -1 first. */
export function focusElement(element: HTMLElement | null | undefined): boolean {
  if (!element) return false
  if (element.tabIndex < 0 && !element.hasAttribute('tabindex')) element.tabIndex = -1
  element.focus()
  return document.activeElement === element
}

/** The page's main heading (the h1 in <main>). */
export function pageHeading(): HTMLElement | null {
  const heading = document.querySelector<HTMLElement>('main h1')
  if (heading && !heading.hasAttribute('tabindex')) heading.tabIndex = -1
  return heading
}

/**
 * When `state` changes and the change took the focused control away (a button replaced by what it did: a form, an
 * outcome, a new status), focus, which fell back to <body>, goes to `target()`. Nothing happens on the first known
 * state (`undefined` while loading), where focus is the page's own, nor when focus is still somewhere.
 */
export function useFocusWhenLost(state: string | undefined, target: () => HTMLElement | null | undefined) {
  const previous = useRef(state)
  // A layout effect: it runs in the commit that removed the control, before anything else can take focus.
  useLayoutEffect(() => {
    const before = previous.current
    previous.current = state
    if (before === undefined || before === state) return
    const active = document.activeElement
    if (active === null || active === document.body) focusElement(target())
  })
}
