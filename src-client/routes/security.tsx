import { createFileRoute, Link } from '@tanstack/react-router'
import { InfoPage } from '../components/info/InfoPage.tsx'
import { seo } from '../lib/seo.ts'

export const Route = createFileRoute('/security')({
  head: () =>
    seo({
      title: 'Security',
      description: 'How SkillForge protects accounts, payments and data, and how to report a vulnerability.',
    }),
  component: () => (
    <InfoPage
      title="Security"
      intro="Protecting your account, your payments and your content is part of everything we build."
      sections={[
        {
          title: 'Account Protection',
          body: [
            [
              'Passwords are stored only as salted Argon2id hashes',
              'Sessions use random tokens stored hashed on our servers, in HttpOnly cookies',
              'Sign-in with Google or Facebook uses the standard OAuth flow with state checks',
            ],
          ],
        },
        {
          title: 'Payments',
          body: [
            'Card payments are handled by a PCI DSS Level 1 certified payment provider on its hosted checkout page. Card numbers never reach our servers. Prices and totals are always calculated on our servers.',
          ],
        },
        {
          title: 'Infrastructure',
          body: [
            'All traffic is encrypted with TLS. Databases are backed up daily and access to production systems is limited to a small number of staff with individual accounts and role-based permissions.',
          ],
        },
        {
          title: 'Reporting a Vulnerability',
          body: [
            <>
              If you believe you have found a security issue, please <Link to="/contact">contact us</Link> with the
              subject "Security report". We will acknowledge it within two business days and keep you informed while we
              fix it. Please do not access other users' data or disrupt the service while testing.
            </>,
          ],
        },
      ]}
    />
  ),
})
