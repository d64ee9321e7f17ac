import { useQuery } from '@tanstack/react-query'
import { createFileRoute, Link } from '@tanstack/react-router'
import { css } from '#styled-system/css'
import { ContactForm } from '../components/contact/ContactForm.tsx'
import { YourSupport } from '../components/contact/YourSupport.tsx'
import { PageIntro } from '../components/layout/PageIntro.tsx'
import { LiveChat } from '../components/live-chat/LiveChat.tsx'
import { Faq } from '../components/ui/Faq.tsx'
import { Icon, type IconName } from '../components/ui/icons.tsx'
import { contentHeading, Section, TitledSection } from '../components/ui/layout.tsx'
import { seo } from '../lib/seo.ts'
import { sessionQuery } from '../lib/session.ts'
import type { RouterOutputs } from '../lib/types.ts'

export const Route = createFileRoute('/contact')({
  head: () =>
    seo({
      title: 'Contact Us',
      description:
        'Questions about courses, services or teaching with us? Send a message, call or chat; we reply within 24-48 business hours.',
    }),
  // The chat panel renders with the page: whether the chat is staffed now, and the member's or visitor's own chat (a
  // visitor's by their chat cookie, decision 0103). A failure leaves the panel to say so; the rest of the page does not
  // wait on it. The session is read first: the panel waits on it to choose the member's or the visitor's start.
  loader: async ({ context: { queryClient, trpc } }) => {
    await queryClient.ensureQueryData(sessionQuery(trpc)).catch(() => null)
    await queryClient.prefetchQuery(trpc.liveChat.mine.queryOptions())
  },
  component: ContactPage,
})

type ChatHoursWords = RouterOutputs['liveChat']['mine']['availability']['hours']

// The chat's hours are the server's (LIVE_CHAT_HOURS, in words; the default reads "Monday-Friday", "9:00 AM - 5:00 PM
// GMT" as the spec says), never written here: a page promising other hours than the chat keeps would be untrue.
const details = (chatHours: ChatHoursWords | undefined): { icon: IconName; title: string; lines: string[] }[] => [
  { icon: 'megaphone', title: 'Email', lines: ['support@skillforge.example'] },
  { icon: 'user', title: 'Phone', lines: ['+44 161 496 0123'] },
  { icon: 'building', title: 'Address', lines: ['SkillForge Ltd', '12 Piccadilly', 'Manchester M1 3AN', 'England'] },
  { icon: 'clock', title: 'Live Chat', lines: chatHours ? [chatHours.days, chatHours.times] : [] },
]

const faqs = (chatHours: ChatHoursWords | undefined) => [
  {
    question: 'How quickly will you respond?',
    answer: `We answer every message within 24-48 business hours.${chatHours ? ` Live chat is staffed ${chatHours.summary}.` : ''}`,
  },
  {
    question: 'Do you offer technical support?',
    answer:
      'Yes. Our support team helps students with access, playback and certificate questions, and helps instructors with uploading, publishing and payouts.',
  },
  {
    question: 'What is your refund policy?',
    answer:
      'Every course comes with a 30-day money-back guarantee. If a course is not right for you, contact us within 30 days of purchase for a full refund.',
  },
  {
    question: 'How can I become an instructor?',
    answer: (
      <>
        Apply on our{' '}
        <Link to="/teach" className={css({ color: 'accent', textDecoration: 'underline' })}>
          Teach on SkillForge
        </Link>{' '}
        page with your resume and a course proposal: tell us your expertise and the course you want to teach, and attach
        a CV or a sample video if you like. Our content team reviews every application and replies by e-mail.
      </>
    ),
  },
]

// OpenStreetMap's embed of the office location (the server's CSP allows frames from openstreetmap.org).
const MAP_URL =
  'https://www.openstreetmap.org/export/embed.html?bbox=-2.2460%2C53.4780%2C-2.2300%2C53.4840&layer=mapnik&marker=53.4810%2C-2.2380'

// The two boxes beside each other: the shop's details and the message form.
const card = css({ bg: 'surface', p: '6', borderRadius: 'card', boxShadow: 'card' })

function ContactPage() {
  const { trpc } = Route.useRouteContext()
  // The loader has it (the chat panel's query); a failure leaves the hours unsaid rather than guessed.
  const chatHours = useQuery(trpc.liveChat.mine.queryOptions()).data?.availability.hours
  return (
    <main>
      <PageIntro title="Contact Us">
        <p>Have a question about a course, a service or teaching with us? We'd love to hear from you.</p>
      </PageIntro>
      <Section>
        <div className={css({ display: 'grid', gap: '8', gridTemplateColumns: { base: '1fr', lg: '1fr 2fr' } })}>
          <div className={css({ display: 'grid', gap: '8', alignSelf: 'start' })}>
            <TitledSection
              id="details-title"
              title="Contact Information"
              className={card}
              titleClassName={contentHeading}
            >
              <ul className={css({ display: 'grid', gap: '5' })}>
                {details(chatHours).map((item) => (
                  <li key={item.title} className={css({ display: 'flex', gap: '3' })}>
                    <span className={css({ color: 'accent' })}>
                      <Icon name={item.icon} />
                    </span>
                    <div>
                      <h3 className={css({ fontWeight: 'semibold' })}>{item.title}</h3>
                      {item.lines.map((line) => (
                        <p key={line} className={css({ color: 'fg.muted', fontSize: 'sm' })}>
                          {line}
                        </p>
                      ))}
                    </div>
                  </li>
                ))}
              </ul>
            </TitledSection>
            <LiveChat />
          </div>
          <TitledSection id="form-title" title="Send us a Message" className={card} titleClassName={contentHeading}>
            <YourSupport />
            <ContactForm trpc={trpc} />
          </TitledSection>
        </div>
      </Section>
      <Section title="Find Us" id="map">
        <iframe
          title="Map showing the SkillForge office in Manchester, England"
          src={MAP_URL}
          loading="lazy"
          className={css({ w: 'full', h: '96', borderRadius: 'card', borderWidth: '1px', borderColor: 'line' })}
        />
      </Section>
      <Section title="Frequently Asked Questions" id="contact-faq">
        <Faq items={faqs(chatHours)} />
      </Section>
    </main>
  )
}
