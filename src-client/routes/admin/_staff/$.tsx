// Any other /admin path: inside the staff layout, so visitors are sent to /admin/login like everywhere else.
import { createFileRoute } from '@tanstack/react-router'
import { AdminNotFound } from '#client/components/admin/AdminNotFound.tsx'

export const Route = createFileRoute('/admin/_staff/$')({
  head: () => ({ meta: [{ title: 'Page not found | SkillForge Admin' }] }),
  component: AdminNotFound,
})
