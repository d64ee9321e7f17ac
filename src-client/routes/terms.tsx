import { createFileRoute, Link } from '@tanstack/react-router'
import { HomeLink, InfoPage } from '../components/info/InfoPage.tsx'
import { seo } from '../lib/seo.ts'

export const Route = createFileRoute('/terms')({
  head: () =>
    seo({
      title: 'Terms of Service',
      description:
        'The terms that apply when you use SkillForge, buy courses, services or plans, or teach on the platform.',
    }),
  component: TermsPage,
})

function TermsPage() {
  return (
    <InfoPage
      title="Terms of Service"
      updated="22 November 2026"
      intro="These terms form the agreement between you and SkillForge Ltd when you use our website, buy courses, services or plans, or publish courses as an instructor."
      numbered
      sections={[
        {
          title: 'Acceptance of Terms',
          body: [
            'By creating an account or making a purchase you agree to these terms. If you do not agree, please do not use the platform.',
          ],
        },
        {
          title: 'Your Account',
          body: [
            'You must give accurate information, keep your password secret and be at least 16 years old. You are responsible for activity under your account; tell us straight away if you think it has been misused.',
          ],
        },
        {
          title: 'Courses and Licences',
          body: [
            'When you buy a course you receive a personal, non-transferable licence to view it for as long as it is available on the platform. You may not copy, resell or share course content.',
          ],
        },
        {
          title: 'Business Services',
          body: [
            'Company formation, consultancy and SEO services are delivered as described in the chosen package. Processing times are estimates; government registries may take longer. We may need identity documents before we can file on your behalf.',
          ],
        },
        {
          title: 'Plans and Billing',
          body: [
            'Subscription plans renew automatically each month or year until cancelled. Every plan starts with a 7-day free trial. Prices include any applicable taxes shown at checkout.',
          ],
        },
        {
          title: 'Refunds',
          body: [
            'Courses carry a 30-day money-back guarantee. Services that have already been filed with a government registry cannot be refunded; otherwise contact us and we will refund any work not yet started.',
          ],
        },
        {
          title: 'Instructor Content',
          body: [
            'Instructors keep ownership of their courses and grant us a licence to host, market and sell them. Content must be original or properly licensed, accurate and lawful.',
          ],
        },
        {
          title: 'Acceptable Use',
          body: [
            [
              'No unlawful, misleading or infringing content',
              'No attempts to break, overload or bypass the security of the platform',
              'No harassment of students, instructors or staff',
            ],
          ],
        },
        {
          title: 'Liability and Governing Law',
          body: [
            <>
              Nothing in these terms limits liability that cannot be limited by law. Otherwise our total liability is
              limited to the amount you paid us in the previous twelve months. These terms are governed by the law of
              England and Wales. Questions? <Link to="/contact">Contact us</Link>.
            </>,
          ],
        },
      ]}
    >
      <HomeLink />
    </InfoPage>
  )
}
