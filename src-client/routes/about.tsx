import { createFileRoute, Link } from '@tanstack/react-router'
import { css } from '#styled-system/css'
import { InfoPage } from '../components/info/InfoPage.tsx'
import { button } from '../components/ui/button.ts'
import { seo } from '../lib/seo.ts'

export const Route = createFileRoute('/about')({
  head: () =>
    seo({
      title: 'About Us',
      description: 'Our mission, our story, the team behind SkillForge and how we work with creators and businesses.',
    }),
  component: AboutPage,
})

function AboutPage() {
  return (
    <InfoPage
      title="About Us"
      intro="SkillForge helps experts turn what they know into courses, and helps the businesses behind them get started and grow."
      sections={[
        {
          title: 'Our Mission',
          body: [
            'We believe practical knowledge should be easy to share and easy to find. Our mission is to give every expert the tools to teach online and earn a fair living from it, and to give every learner courses taught by people who do the work every day.',
          ],
        },
        {
          title: 'Our Story',
          body: [
            'SkillForge began in 2019 when a small group of developers and teachers in Manchester grew tired of stitching together video hosts, payment forms and spreadsheets to sell their workshops. We built a single platform for ourselves, then opened it to other creators.',
            'As our instructors grew, many asked for help setting up their own companies, so we added company formation in the UK and USA, business consultancy and SEO services delivered by specialists.',
          ],
        },
        {
          title: 'Our Team',
          body: [
            'We are a team of engineers, designers, educators, accountants and support specialists spread across the UK, Europe and North America. Every course on the platform is reviewed by our content team, and every service is delivered by qualified professionals.',
            [
              'Content and instructor success',
              'Engineering and design',
              'Company formation and compliance specialists',
              'Student and creator support',
            ],
          ],
        },
        {
          title: 'Our Approach',
          body: [
            'We keep things simple and honest: clear prices, no hidden fees, a 30-day money-back guarantee on courses, and real people answering your messages within 24-48 business hours. We measure our success by the success of our creators and students.',
          ],
        },
      ]}
    >
      <div className={css({ display: 'flex', gap: '3', flexWrap: 'wrap' })}>
        <Link to="/courses" className={button()}>
          Browse Courses
        </Link>
        <Link to="/contact" className={button({ variant: 'outline' })}>
          Contact Us
        </Link>
      </div>
    </InfoPage>
  )
}
