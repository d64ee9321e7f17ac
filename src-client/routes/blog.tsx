import { createFileRoute, Link } from '@tanstack/react-router'
import { InfoPage } from '../components/info/InfoPage.tsx'
import { seo } from '../lib/seo.ts'

export const Route = createFileRoute('/blog')({
  head: () => seo({ title: 'Blog', description: 'News, teaching tips and business advice from the SkillForge team.' }),
  component: () => (
    <InfoPage
      title="Blog"
      intro="News, teaching tips and business advice from the SkillForge team."
      sections={[
        {
          title: 'How to Outline a Course Students Finish',
          body: [
            'Courses with short lessons and a clear project at the end have far higher completion rates. Start with the result your students want, work backwards to the skills they need, and keep most lessons under fifteen minutes.',
          ],
        },
        {
          title: 'UK Limited Company or US LLC?',
          body: [
            <>
              Selling worldwide raises the question of where to incorporate. A UK company suits founders living in the
              UK; a US LLC can make sense when most customers are American. Our{' '}
              <Link to="/services">company formation services</Link> explain both.
            </>,
          ],
        },
        {
          title: 'Pricing Your First Course',
          body: [
            'Price for the value of the outcome, not the number of hours. Launch with a time-limited coupon for your first students, collect reviews, then move to full price.',
          ],
        },
        {
          title: 'Five SEO Fixes for Course Pages',
          body: [
            'Write a unique title and description for every course, use descriptive image alt text, keep pages fast, link related courses together and make sure every public page is in your sitemap.',
          ],
        },
      ]}
    />
  ),
})
