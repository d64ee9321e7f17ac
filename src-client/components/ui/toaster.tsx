// Toasts for the whole app. The Ark UI toaster loads in its own chunk right after the first render (it is
// not needed before the first action), keeping it out of the first page's JavaScript.
import { lazy, Suspense } from 'react'
import { errorMessage, isClientError, isServiceUnavailable } from '#client/lib/errors.ts'
import { OUTAGE } from '#shared/outage.ts'

const loadToaster = () => import('./toaster-view.tsx')
const ToasterView = lazy(loadToaster)

export type ToastKind = 'success' | 'error' | 'info'

/**
 * Shows a toast. A success means the visitor got past whatever failed before ("Login failed", then a log-in that
 * worked): the error toasts still on screen are stale, so they go.
 */
export function notify(kind: ToastKind, title: string, description?: string, link?: ToastLink): void {
  void loadToaster().then(({ toaster }) => {
    if (kind === 'success') {
      for (const toast of toaster.getVisibleToasts()) if (toast.type === 'error' && toast.id) toaster.dismiss(toast.id)
    }
    toaster.create({ type: kind, title, description, meta: link ? { link } : undefined })
  })
}

/** A link a toast offers as the way on ("Log in"). */
export interface ToastLink {
  label: string
  href: string
}

/**
 * "Please log in to …" with a Log in link that comes back to this page: a visitor who tried to add a course to the
 * cart or enrol is one click from doing it.
 */
export function notifyLoginNeeded(title: string): void {
  const here = `${window.location.pathname}${window.location.search}`
  notify('error', title, undefined, { label: 'Log in', href: `/login?redirect=${encodeURIComponent(here)}` })
}

/**
 * The toast of a failed action: the caller's title, with the server's reason under it when the server refused on
 * purpose ("This session was cancelled", "You are posting too quickly") and the caller gave no description; the
 * server's message alone when there is no title. During an outage every action says the same: the service is briefly
 * down, try again.
 */
export function errorToast(
  error: unknown,
  title?: string,
  description?: string,
): { title: string; description?: string } {
  if (isServiceUnavailable(error)) return { title: OUTAGE.title, description: OUTAGE.message }
  if (!title) return { title: errorMessage(error) }
  const reason = description ?? (isClientError(error) ? errorMessage(error) : undefined)
  return reason && reason !== title ? { title, description: reason } : { title }
}

export function notifyError(error: unknown, title?: string, description?: string): void {
  const toast = errorToast(error, title, description)
  notify('error', toast.title, toast.description)
}

/**
 * A mutation's outcome as toasts (spread into its mutationOptions): `message` once it succeeded, then `then` (a
 * refresh of what it changed) is awaited; a failure is the error toast.
 */
export function toastOutcome(message: string, then: () => unknown) {
  return {
    onSuccess: async () => {
      notify('success', message)
      await then()
    },
    onError: (error: unknown) => notifyError(error),
  }
}

/**
 * The other order (spread into mutationOptions): what it changed is loaded again (`reload`, awaited) and only then
 * `message` is toasted, so the toast comes with the list already showing the change; a failure is the error toast.
 */
export function reloadThenToast(reload: () => Promise<unknown>, message: string) {
  return {
    onSuccess: async () => {
      await reload()
      notify('success', message)
    },
    onError: (error: unknown) => notifyError(error),
  }
}

export function AppToaster() {
  return (
    <Suspense fallback={null}>
      <ToasterView />
    </Suspense>
  )
}
