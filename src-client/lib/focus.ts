// Moving focus after an action that replaces or removes the focused element, so it never falls back to <body>.

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
