import { createFileRoute, Link } from '@tanstack/react-router'
import { InfoPage } from '../components/info/InfoPage.tsx'
import { seo } from '../lib/seo.ts'

// Short guides, each pointing to the part of SkillForge that does what it says (a title with no guide behind it would
// promise one).
export const Route = createFileRoute('/resources')({
  head: () =>
    seo({
      title: 'Resources',
      description: 'Short guides for course creators, students and business owners using SkillForge.',
    }),
  component: () => (
    <InfoPage
      title="Resources"
      intro="Short guides to get the most out of SkillForge, whether you are learning, teaching or starting a business."
      sections={[
        {
          title: 'For Course Creators',
          body: [
            <>
              <strong>Planning a course.</strong> Choose one result a learner can reach, split the way there into
              sections of a few short lessons, and write four to six learning outcomes that each start with a verb. The
              studio’s publishing checklist shows what a course still needs before it goes to review. Start by{' '}
              <Link to="/teach">applying to teach</Link>.
            </>,
            <>
              <strong>Recording.</strong> A quiet room with soft furnishings, a USB microphone a hand’s width from your
              mouth, and light from in front of you do more than an expensive camera. Record your screen at 1920 × 1080.
              Upload MP4, MOV or WebM in the studio: uploads resume where they stopped if your connection drops.
            </>,
            <>
              <strong>Pricing, coupons and bundles.</strong> Price a course in US dollars, pounds or both. On Pro and
              Enterprise, a launch coupon (a percentage or an amount, with dates and a limit on uses) and a bundle of
              related courses at one price bring learners in; see <Link to="/pricing">Pricing</Link>.
            </>,
            <>
              <strong>A course page that converts.</strong> Say the result in the title and subtitle, list what learners
              will be able to do, mark one or two lessons as free previews, and use a clear cover image.
            </>,
          ],
        },
        {
          title: 'For Students',
          body: [
            <>
              <strong>Finding a course.</strong> Search <Link to="/courses">the catalogue</Link> and narrow it by
              category, price, rating and length; sort by popularity, rating or price.
            </>,
            <>
              <strong>Your certificate.</strong> Complete every lesson of a course that offers a certificate (a quiz
              lesson counts once you pass it): the certificate is issued at once, and its link lets anyone check it.
            </>,
            <>
              <strong>Refunds.</strong> A course can be refunded within 30 days: see our{' '}
              <Link to="/terms">Terms of Service</Link>.
            </>,
          ],
        },
        {
          title: 'For Business Owners',
          body: [
            <>
              What UK and US company formation includes, and what to expect from an SEO audit, is on each{' '}
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
