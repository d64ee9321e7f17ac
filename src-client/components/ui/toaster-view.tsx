// The toast store and its view (Ark UI): bottom-right, 4 s, at most 3 visible (spec §9). Loaded on demand
// through toaster.tsx, so the first page load does not carry it.
import { createToaster, Toast, Toaster } from '@ark-ui/react/toast'
import { TOAST_DURATION_MS, TOAST_MAX_VISIBLE } from '#shared/constants.ts'
import { css } from '#styled-system/css'
import type { ToastLink } from './toaster.tsx'

export const toaster = createToaster({
  placement: 'bottom-end',
  overlap: false,
  gap: 12,
  max: TOAST_MAX_VISIBLE,
  duration: TOAST_DURATION_MS,
})

const rootClass = css({
  bg: 'surface',
  borderWidth: '1px',
  borderColor: 'line',
  borderLeftWidth: '4px',
  borderRadius: 'control',
  boxShadow: 'raised',
  p: '3',
  pr: '8',
  minW: 'min(18rem, calc(100vw - 2rem))',
  maxW: 'min(24rem, calc(100vw - 2rem))',
  position: 'relative',
  translate: 'var(--x) var(--y)',
  scale: 'var(--scale)',
  zIndex: 'var(--z-index)',
  height: 'var(--height)',
  opacity: 'var(--opacity)',
  willChange: 'translate, opacity, scale',
  transition: 'translate 0.3s, scale 0.3s, opacity 0.3s, height 0.3s',
  // Ark keeps a hover strip over the gap above each toast (data-ghost="after"), so moving between stacked toasts keeps
  // them paused; it is invisible, and it took clicks meant for what lies beneath it (a row's Edit just above a toast).
  '& [data-ghost=after]': { pointerEvents: 'none' },
  // A dismissed toast stays a moment to fade out: it takes no click meant for what lies beneath (a dialog's Save).
  '&[data-state=closed]': { pointerEvents: 'none' },
  '&[data-type=success]': { borderLeftColor: 'success' },
  '&[data-type=error]': { borderLeftColor: 'danger' },
  '&[data-type=info]': { borderLeftColor: 'accent' },
})

export default function ToasterView() {
  return (
    <Toaster toaster={toaster}>
      {(toast) => (
        <Toast.Root key={toast.id} className={rootClass}>
          <Toast.Title className={css({ fontWeight: 'semibold', fontSize: 'sm' })}>{toast.title}</Toast.Title>
          {toast.description ? (
            <Toast.Description className={css({ fontSize: 'sm', color: 'fg.muted' })}>
              {toast.description}
            </Toast.Description>
          ) : null}
          {toast.meta?.link ? <ToastLinkView link={toast.meta.link as ToastLink} /> : null}
          <Toast.CloseTrigger
            aria-label="Dismiss notification"
            className={css({ position: 'absolute', top: '2', right: '2', cursor: 'pointer', color: 'fg.muted' })}
          >
            ×
          </Toast.CloseTrigger>
        </Toast.Root>
      )}
    </Toaster>
  )
}

// Underlined: told apart from the toast's text by more than its colour (WCAG 1.4.1).
const toastLinkClass = css({ fontSize: 'sm', fontWeight: 'semibold', color: 'accent', textDecoration: 'underline' })

/** A plain link (a full page load to a route the app serves), so it works wherever the toast shows. */
function ToastLinkView({ link }: { link: ToastLink }) {
  return (
    <a href={link.href} className={toastLinkClass}>
      {link.label}
    </a>
  )
}
