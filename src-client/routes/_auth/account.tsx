import { createFileRoute, Link } from '@tanstack/react-router'
import { ChangePasswordSection } from '#client/components/account/ChangePasswordSection.tsx'
import { EmailAddressSection } from '#client/components/account/EmailAddressSection.tsx'
import { MailPreferencesSection } from '#client/components/account/MailPreferencesSection.tsx'
import { ProfileSection } from '#client/components/account/ProfileSection.tsx'
import { WaitingGifts } from '#client/components/gifts/GiftClaim.tsx'
import { MyGifts } from '#client/components/gifts/MyGifts.tsx'
import { PageIntro } from '#client/components/layout/PageIntro.tsx'
import { PurchasesSections } from '#client/components/purchases/PurchasesSections.tsx'
import { Container } from '#client/components/ui/layout.tsx'
import { useSession } from '#client/lib/session.ts'
import { css } from '#styled-system/css'

export const Route = createFileRoute('/_auth/account')({
  // The purchase sections are independent: each shows its own error, so a failing one never hides the others.
  loader: ({ context: { queryClient, trpc } }) =>
    Promise.all([
      queryClient.prefetchQuery(trpc.purchases.entitlements.queryOptions()),
      queryClient.prefetchQuery(trpc.learning.myCourses.queryOptions()),
      queryClient.prefetchQuery(trpc.purchases.orders.queryOptions()),
      queryClient.prefetchQuery(trpc.membership.get.queryOptions()),
      queryClient.prefetchQuery(trpc.serviceOrders.mine.queryOptions()),
      queryClient.prefetchQuery(trpc.gifts.mine.queryOptions()),
      queryClient.prefetchQuery(trpc.gifts.waiting.queryOptions()),
      queryClient.prefetchQuery(trpc.profile.mailPreferences.queryOptions()),
      queryClient.prefetchQuery(trpc.profile.emailChange.queryOptions()),
    ]),
  head: () => ({ meta: [{ title: 'My Account | SkillForge' }] }),
  component: AccountPage,
})

// The account page is a stack of independent sections; add new ones (orders, courses, premium) below.
function AccountPage() {
  const { user } = useSession()
  return (
    <main>
      <PageIntro title="My Account">
        <p>
          Manage your profile and account settings.{' '}
          <Link to="/account/security" className={css({ textDecoration: 'underline', fontWeight: 'medium' })}>
            Security: two-factor and signed-in devices
          </Link>
        </p>
      </PageIntro>
      <Container className={css({ py: '10', display: 'flex', flexDir: 'column', gap: '8' })}>
        {/* First: a gift mailed to this address and not claimed yet (decision 0146); nothing when there is none. */}
        {user ? <WaitingGifts email={user.email} inCard /> : null}
        <ProfileSection />
        {user ? <EmailAddressSection email={user.email} /> : null}
        <ChangePasswordSection />
        <MailPreferencesSection />
        <PurchasesSections />
        <MyGifts />
      </Container>
    </main>
  )
}
