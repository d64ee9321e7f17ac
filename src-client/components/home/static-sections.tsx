// The home page's fixed sections: hero, statistics band (static text, spec §2), feature list, closing call to action.
import { Link } from '@tanstack/react-router'
import { css } from '#styled-system/css'
import { ClosingBand } from '../layout/bands.tsx'
import { button } from '../ui/button.ts'
import { Icon, type IconName } from '../ui/icons.tsx'
import { Container, Section } from '../ui/layout.tsx'

export function HomeHero() {
  return (
    <section
      data-surface="dark"
      className={css({ bgGradient: 'to-br', gradientFrom: 'brand.900', gradientTo: 'brand.600', color: 'white' })}
    >
      <Container className={css({ py: { base: '16', md: '24' } })}>
        <h1
          className={css({
            fontSize: { base: '3xl', md: '5xl' },
            fontWeight: 'extrabold',
            maxW: '3xl',
            lineHeight: 'tight',
          })}
        >
          Create, sell and grow with online courses
        </h1>
        <p className={css({ mt: '4', fontSize: 'lg', maxW: '2xl', color: 'brand.100' })}>
          Turn what you know into courses students love, sell them on a platform built for creators, and use our
          business services to launch and grow the company behind them.
        </p>
        <div className={css({ mt: '8', display: 'flex', gap: '3', flexWrap: 'wrap' })}>
          <Link to="/signup" className={button({ variant: 'light', size: 'lg' })}>
            Get Started For Free
          </Link>
          <Link to="/courses" className={button({ variant: 'outline', size: 'lg' })}>
            Browse Courses
          </Link>
        </div>
      </Container>
    </section>
  )
}

const features: { icon: IconName; title: string; text: string }[] = [
  {
    icon: 'book',
    title: 'Powerful course builder',
    text: 'Organise lessons into sections, add video, quizzes and downloads, and mark free preview lessons.',
  },
  {
    icon: 'cart',
    title: 'Checkout that converts',
    text: 'Card, PayPal and bank transfer payments with instant access for your students.',
  },
  {
    icon: 'users',
    title: 'Grow your audience',
    text: 'Coupons, bundles and gifts, and a searchable catalogue where our team features standout courses.',
  },
  {
    icon: 'check',
    title: 'Certificates included',
    text: 'Students earn a certificate of completion for every course they finish.',
  },
  {
    icon: 'briefcase',
    title: 'Business services',
    text: 'Form a UK or US company, get expert consultancy and improve your SEO in one place.',
  },
  {
    icon: 'clock',
    title: 'Support when you need it',
    // The chat's days and hours are LIVE_CHAT_HOURS's, shown on /contact; this static page does not restate them.
    text: 'Live chat during our staffed hours and answers to every message within 24-48 business hours.',
  },
]

export function FeatureList() {
  return (
    <Section title="Everything you need to teach online" id="features">
      <ul
        className={css({
          display: 'grid',
          gap: '6',
          gridTemplateColumns: { base: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(3, 1fr)' },
        })}
      >
        {features.map((feature) => (
          <li key={feature.title} className={css({ display: 'flex', gap: '3' })}>
            <span
              className={css({ color: 'accent', bg: 'brand.50', p: '2', borderRadius: 'control', h: 'fit-content' })}
            >
              <Icon name={feature.icon} />
            </span>
            <div>
              <h3 className={css({ fontWeight: 'semibold' })}>{feature.title}</h3>
              <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>{feature.text}</p>
            </div>
          </li>
        ))}
      </ul>
    </Section>
  )
}

export function ClosingCta() {
  return (
    <ClosingBand
      title="Ready to share your knowledge with the world?"
      text="Join thousands of creators who teach, sell and grow their business with SkillForge."
      action={{ to: '/signup', label: 'Start Creating Today' }}
      secondary={{ to: '/teach', label: 'Apply as Teacher' }}
    />
  )
}
