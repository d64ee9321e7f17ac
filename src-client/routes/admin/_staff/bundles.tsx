// /admin/bundles: every bundle; editors and up make bundles of any published courses.
import { createFileRoute } from '@tanstack/react-router'
import { BundleManager } from '#client/components/bundles/BundleManager.tsx'

export const Route = createFileRoute('/admin/_staff/bundles')({
  head: () => ({ meta: [{ title: 'Bundles | SkillForge Admin' }] }),
  component: () => <BundleManager scope="admin" intro="Sell several courses, of any creator, at one price." />,
})
