import { createFileRoute, Link } from '@tanstack/react-router'
import { ACCOUNT_DELETION_COOL_OFF_DAYS, KEPT_RECORDS, PROCESSORS, RETENTION } from '#shared/retention.ts'
import { HomeLink, InfoPage } from '../components/info/InfoPage.tsx'
import { seo } from '../lib/seo.ts'

export const Route = createFileRoute('/privacy')({
  head: () =>
    seo({
      title: 'Privacy Policy',
      description:
        'How SkillForge collects, uses, shares and protects your personal data, and the rights you have over it.',
    }),
  component: PrivacyPage,
})

const period = (days: number) =>
  days === 0
    ? 'as soon as they end'
    : days % 365 === 0
      ? `${days / 365} year${days === 365 ? '' : 's'}`
      : `${days} days`

/** The retention job's own periods (src-shared/retention.ts), so this page says what the job does. */
const RETENTION_LINES = Object.values(RETENTION).map((rule) => `${rule.what}: ${period(rule.days)}`)

function PrivacyPage() {
  return (
    <InfoPage
      title="Privacy Policy"
      updated="29 November 2026"
      intro="This policy explains what personal data SkillForge Ltd collects when you use our website, courses and services, why we collect it and the choices you have."
      numbered
      sections={[
        {
          title: 'Who We Are',
          body: [
            'SkillForge Ltd is the controller of your personal data. We are registered in England and Wales, and you can reach our data protection lead at support@skillforge.example or at 12 Piccadilly, Manchester M1 3AN, England.',
          ],
        },
        {
          title: 'Information We Collect',
          body: [
            'We collect the information you give us and information created when you use the platform:',
            [
              'Account details: your name, e-mail address, password (stored only as a secure hash) and profile picture',
              'Orders: the courses, services and plans you buy and your billing details (card numbers are handled by our payment provider, never by us)',
              'Messages you send us through the contact form or live chat',
              'Technical data: IP address, browser type and pages visited',
            ],
          ],
        },
        {
          title: 'How We Use Your Information',
          body: [
            [
              'To create and run your account and give you access to what you buy',
              'To process payments and deliver business services',
              'To answer your questions and provide support',
              'To keep the platform secure and prevent fraud',
              'To improve our courses and services, using aggregated statistics',
            ],
          ],
        },
        {
          title: 'Legal Bases',
          body: [
            'We process your data to perform our contract with you, to meet legal obligations (for example tax records and anti-money-laundering checks for company formation), for our legitimate interests in running a secure service, and with your consent where we ask for it.',
          ],
        },
        {
          title: 'Sharing Your Information',
          body: [
            'We never sell your personal data. We share it only with providers who help us run the service (payment processing, e-mail delivery, hosting), with Companies House or US state registries when you order a formation service, and with authorities when the law requires it.',
          ],
        },
        {
          title: 'Cookies',
          body: [
            <>
              We use a small number of cookies to keep you signed in and to remember your preferences. See our{' '}
              <Link to="/cookies">Cookie Policy</Link> for the full list and how to control them.
            </>,
          ],
        },
        {
          title: 'Data Retention',
          body: [
            'We keep account data while your account is open. A job deletes these records every day once they are older than:',
            RETENTION_LINES,
            'And these are kept whatever happens to your account, as the law or other people need them:',
            [...KEPT_RECORDS],
          ],
        },
        {
          title: 'Deleting Your Account',
          body: [
            `Choose Delete my account on Account → Security. Your account is deleted ${ACCOUNT_DELETION_COOL_OFF_DAYS} days later (we e-mail you when you ask and the day before; signing in meanwhile lets you cancel). We then erase your name, e-mail address, picture, sign-in methods, learning progress, certificates, carts and uploaded files; reviews, questions and messages others rely on stay, shown as “Deleted user”. You can also ask us by e-mail.`,
          ],
        },
        {
          title: 'Who Processes Your Data for Us',
          body: [PROCESSORS.map((processor) => `${processor.name}: ${processor.purpose} (${processor.where})`)],
        },
        {
          title: 'Your Rights',
          body: [
            "Under UK GDPR you can ask to access, correct, delete or export your data, object to or restrict our use of it, and withdraw consent at any time. Write to support@skillforge.example; we reply within one month. You may also complain to the Information Commissioner's Office (ico.org.uk).",
            'Download my data on Account → Security makes you a copy yourself. It includes what our team did about your account and when: each time a member of staff looks your account up, it is recorded.',
          ],
        },
        {
          title: 'Changes to This Policy',
          body: [
            'We may update this policy as our services change. We will post the new version here with a new date and, for significant changes, tell you by e-mail.',
          ],
        },
      ]}
    >
      <HomeLink />
    </InfoPage>
  )
}
