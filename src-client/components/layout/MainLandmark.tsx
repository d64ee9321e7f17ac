// Every page has one <main>: the skip link moves focus to it and screen readers jump to it. Most pages draw their own;
// the admin layout and a studio course's tabs draw it around their child routes. A screen that may stand in either
// place (a failed route's error) takes `OwnMain`, which draws one only where no layout has.
import { type ComponentProps, createContext, type ReactNode, useContext } from 'react'

const InsideMain = createContext(false)

/** A layout's <main> around the child routes it shows. */
export function MainAround(props: ComponentProps<'main'>) {
  return (
    <InsideMain.Provider value={true}>
      <main {...props} />
    </InsideMain.Provider>
  )
}

/** `children` in a <main> of their own, unless a layout's MainAround already holds them. */
export function OwnMain({ children }: { children: ReactNode }) {
  return useContext(InsideMain) ? children : <main>{children}</main>
}
