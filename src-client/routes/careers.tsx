import { createFileRoute, Link } from '@tanstack/react-router'
import { InfoPage } from '../components/info/InfoPage.tsx'
import { seo } from '../lib/seo.ts'

export const Route = createFileRoute('/careers')({
  head: () =>
    seo({ title: 'Careers', description: 'Join the SkillForge team: how we work, what we offer and how to apply.' }),
  component: () => (
    <InfoPage
      title="Careers"
      intro="We are a small team helping thousands of experts teach online. Come and build it with us."
      sections={[
        {
          title: 'How We Work',
          body: [
            'We work remotely across the UK and Europe, with an office in Manchester for those who like one. We write things down, ship small changes often and talk to our creators every week.',
          ],
        },
        {
          title: 'What We Offer',
          body: [
            [
              'Competitive salary and share options',
              '30 days of holiday plus public holidays',
              'A yearly learning budget, and every course on the platform for free',
              'Flexible hours around a few shared core hours',
            ],
          ],
        },
        {
          title: 'Open Roles',
          body: [
            'We have no open roles right now, but we always like to hear from engineers, designers, support specialists and company formation experts.',
          ],
        },
        {
          title: 'How to Apply',
          body: [
            <>
              Send your CV and a short note about what you would like to work on through our{' '}
              <Link to="/contact">contact form</Link>, with the subject "Careers".
            </>,
          ],
        },
      ]}
    />
  ),
})
