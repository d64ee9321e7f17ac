import { createFileRoute, Link } from '@tanstack/react-router'
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
            [
              'Session cookie: keeps you signed in (up to 30 days if you choose Remember me)',
              'Two-step sign-in cookie: holds your sign-in while you enter your second-factor code (10 minutes)',
              'Sign-in state cookie: protects social sign-in with Google or Facebook, and a school’s own sign-in (10 minutes)',
              'Sign-in hand-off cookie: on a school’s own web address, ties the sign-in you make on SkillForge to your browser (15 minutes)',
              'Sign-up cookie: lets the verification link we e-mail you confirm your address at once in the browser you signed up in (one day)',
              'Live chat cookie: keeps a chat you started without signing in yours, so only your browser sees it (one day)',
            ],
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
