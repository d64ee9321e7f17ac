import { createFileRoute, Link } from '@tanstack/react-router'
import { InfoPage } from '../components/info/InfoPage.tsx'
import { seo } from '../lib/seo.ts'

export const Route = createFileRoute('/resources')({
  head: () =>
    seo({
      title: 'Resources',
      description: 'Guides, checklists and help for course creators and business owners using SkillForge.',
    }),
  component: () => (
    <InfoPage
      title="Resources"
      intro="Guides and help to get the most out of SkillForge, whether you are learning, teaching or starting a business."
      sections={[
        {
          title: 'For Course Creators',
          body: [
            [
              'Planning a course: choosing a topic, outlining sections and writing learning outcomes',
              'Recording: microphones, lighting and screen capture on a budget',
              'Pricing your course and using coupons and bundles',
              'Writing a course page that converts visitors into students',
            ],
          ],
        },
        {
          title: 'For Students',
          body: [
            [
              'Finding the right course with search and filters',
              'Getting your certificate of completion',
              <>
                Refunds within 30 days: see our <Link to="/terms">Terms of Service</Link>
              </>,
            ],
          ],
        },
        {
          title: 'For Business Owners',
          body: [
            <>
              Company formation checklists for the UK and USA, and what to expect from an SEO audit, are on each{' '}
              <Link to="/services">service page</Link>.
            </>,
          ],
        },
        {
          title: 'Need More Help?',
          body: [
            <>
              Our support team answers within 24-48 business hours. <Link to="/contact">Contact us</Link>.
            </>,
          ],
        },
      ]}
    />
  ),
})
