// Toasts for the whole app. The Ark UI toaster loads in its own chunk right after the first render (it is
// not needed before the first action), keeping it out of the first page's JavaScript.
import { lazy, Suspense } from 'react'
import { errorMessage, isServiceUnavailable } from '#client/lib/errors.ts'
import { OUTAGE } from '#shared/outage.ts'

const loadToaster = () => import('./toaster-view.tsx')
const ToasterView = lazy(loadToaster)

export type ToastKind = 'success' | 'error' | 'info'

/**
 * Shows a toast. A success means the visitor got past whatever failed before ("Login failed", then a log-in that
 * worked): the error toasts still on screen are stale, so they go.
 */
export function notify(kind: ToastKind, title: string, description?: string): void {
  void loadToaster().then(({ toaster }) => {
    if (kind === 'success') {
      for (const toast of toaster.getVisibleToasts()) if (toast.type === 'error' && toast.id) toaster.dismiss(toast.id)
    }
    toaster.create({ type: kind, title, description })
  })
}

/**
 * The toast of a failed action: the caller's title (and description), or the server's message when there is
 * no title. During an outage every action says the same: the service is briefly down, try again.
 */
export function notifyError(error: unknown, title?: string, description?: string): void {
  if (isServiceUnavailable(error)) notify('error', OUTAGE.title, OUTAGE.message)
  else if (title) notify('error', title, description)
  else notify('error', errorMessage(error))
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
