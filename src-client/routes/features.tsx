import { createFileRoute, Link } from '@tanstack/react-router'
import { InfoPage } from '../components/info/InfoPage.tsx'
import { button } from '../components/ui/button.ts'
import { seo } from '../lib/seo.ts'

export const Route = createFileRoute('/features')({
  head: () =>
    seo({
      title: 'Features',
      description:
        'Course builder, checkout, marketing tools, certificates, analytics and business services: everything SkillForge gives creators.',
    }),
  component: () => (
    <InfoPage
      title="Features"
      intro="Everything you need to create, sell and grow an online course business, in one place."
      sections={[
        {
          title: 'Course Builder',
          body: [
            'Organise your course into sections and lessons, upload video, add downloads and quizzes, and mark lessons as free previews so visitors can try before they buy.',
          ],
        },
        {
          title: 'Checkout and Payments',
          body: [
            'Sell courses, services and subscription plans with card payments through a secure hosted checkout, PayPal or bank transfer. Students get instant access as soon as payment is confirmed.',
          ],
        },
        {
          title: 'Marketing Tools',
          body: [
            [
              'Coupons and limited-time discounts',
              'Bundles of courses at a single price',
              'A searchable catalogue where our team features standout courses on the home page',
              'Search-friendly course pages with rich results',
            ],
          ],
        },
        {
          title: 'Certificates and Progress',
          body: [
            'Students earn a certificate of completion for every course they finish, and can pick up exactly where they left off on any device.',
          ],
        },
        {
          title: 'Analytics',
          body: [
            'See sales, refunds, student progress and reviews at a glance, and understand which lessons keep students engaged.',
          ],
        },
        {
          title: 'Business Services',
          body: [
            'Form a UK limited company or a US LLC, get expert consultancy, or improve your search rankings with an SEO audit or ongoing SEO management.',
          ],
        },
      ]}
    >
      <p>
        <Link to="/pricing" className={button()}>
          See Pricing
        </Link>
      </p>
    </InfoPage>
  ),
})
