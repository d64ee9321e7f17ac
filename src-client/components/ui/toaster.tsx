// Toasts for the whole app. The Ark UI toaster loads in its own chunk right after the first render (it is
// not needed before the first action), keeping it out of the first page's JavaScript.
import { lazy, Suspense } from 'react'

const loadToaster = () => import('./toaster-view.tsx')
const ToasterView = lazy(loadToaster)

export type ToastKind = 'success' | 'error' | 'info'

export function notify(kind: ToastKind, title: string, description?: string): void {
  void loadToaster().then(({ toaster }) => toaster.create({ type: kind, title, description }))
}

export function AppToaster() {
  return (
    <Suspense fallback={null}>
      <ToasterView />
    </Suspense>
  )
}
