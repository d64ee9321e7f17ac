import { createFileRoute } from '@tanstack/react-router'
import { catalogueSearchSchema } from '../../../src-shared/schemas/catalog.ts'
import { PageIntro } from '../../components/layout/PageIntro.tsx'

export const Route = createFileRoute('/courses/')({
  validateSearch: catalogueSearchSchema,
  head: () => ({ meta: [{ title: 'Courses | SkillForge' }] }),
  component: () => (
    <main>
      <PageIntro title="All Courses" />
    </main>
  ),
})
