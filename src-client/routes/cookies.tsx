import { createFileRoute, Link } from '@tanstack/react-router'
import { COOKIES } from '#shared/cookies.ts'
import { HomeLink, InfoPage } from '../components/info/InfoPage.tsx'
import { seo } from '../lib/seo.ts'

export const Route = createFileRoute('/cookies')({
  head: () =>
    seo({
      title: 'Cookie Policy',
      description: 'The cookies SkillForge uses, why we use them and how you can control them.',
    }),
  component: () => (
    <InfoPage
      title="Cookie Policy"
      updated="7 December 2026"
      intro="Cookies are small text files stored by your browser. We keep their use to the minimum needed to run the site."
      sections={[
        {
          title: 'Strictly Necessary Cookies',
          body: [
            'These keep you signed in and protect your session. They are set only when you sign up, log in or start a live chat, are marked HttpOnly and Secure, and cannot be switched off without breaking sign-in or the chat.',
            COOKIES.map((cookie) => cookie.says),
          ],
        },
        {
          title: 'Preference Storage',
          body: [
            'We may store simple preferences, such as your last catalogue filters, in your browser. They never leave your device.',
          ],
        },
        {
          title: 'Analytics and Advertising',
          body: ['We do not use advertising cookies, and we do not sell data to advertisers.'],
        },
        {
          title: 'Managing Cookies',
          body: [
            <>
              You can delete or block cookies in your browser settings. Blocking the session cookie means you will not
              be able to log in. For how we handle personal data, see our <Link to="/privacy">Privacy Policy</Link>.
            </>,
          ],
        },
      ]}
    >
      <HomeLink />
    </InfoPage>
  ),
})
