// A drop-down menu whose Ark UI code (the menu machine and floating-ui, ~15 kB gzipped) loads on first use
// rather than with the first page. Until then a plain button that looks the same stands in for its trigger.
import {
  type ButtonHTMLAttributes,
  type ComponentType,
  type ReactElement,
  type Ref,
  Suspense,
  useRef,
  useState,
} from 'react'

/** What the real menu gets: open at once (the stand-in was used), or take the focus the stand-in had. */
export interface DeferredMenuProps {
  defaultOpen: boolean
  focusTrigger: boolean
}

export type StandInProps = Pick<
  ButtonHTMLAttributes<HTMLButtonElement>,
  'aria-haspopup' | 'aria-expanded' | 'onClick' | 'onKeyDown' | 'onFocus' | 'onPointerEnter' | 'onPointerDown'
> & { ref: Ref<HTMLButtonElement> }

export function DeferredMenu<P extends object>({
  menu: Menu,
  menuProps,
  load,
  standIn,
}: {
  /** The menu, made with React.lazy(load). */
  menu: ComponentType<P & DeferredMenuProps>
  menuProps: P
  load: () => Promise<unknown>
  /** Renders the stand-in trigger with the given props spread on a <button>. */
  standIn: (props: StandInProps) => ReactElement
}) {
  const [woken, setWoken] = useState<DeferredMenuProps | null>(null)
  const ref = useRef<HTMLButtonElement>(null)
  const pressed = useRef(false)
  const open = () => setWoken({ defaultOpen: true, focusTrigger: false })
  const props: StandInProps = {
    ref,
    'aria-haspopup': 'menu',
    'aria-expanded': false,
    // Focus only fetches the code: swapping the focused button would lose a key pressed meanwhile.
    onFocus: () => void load(),
    // A pointer over it swaps in the real menu, closed, so the click lands on the real trigger. Not once a press has
    // begun on the stand-in (a tap, or a quick click while the code arrives): a swap between the press and the release
    // would send the click to neither button, and the stand-in's own click opens the menu.
    onPointerEnter: () =>
      void load().then(() => {
        if (pressed.current) return
        setWoken((current) => current ?? { defaultOpen: false, focusTrigger: document.activeElement === ref.current })
      }),
    onPointerDown: () => {
      pressed.current = true
    },
    onClick: open,
    onKeyDown: (event) => {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault()
        open()
      }
    },
  }
  if (!woken) return standIn(props)
  return (
    <Suspense fallback={standIn(props)}>
      <Menu {...menuProps} {...woken} />
    </Suspense>
  )
}
