// The account page's purchase sections: membership (from the server's subscription), My courses, My services,
// Order history. On a school's own domain, the school's: My courses and Order history (Premium and the business
// services are the marketplace's: decision 0150).
import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useSite } from '#client/lib/site.ts'
import type { RouterOutputs } from '#client/lib/types.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { formatDate } from '#shared/dates.ts'
import { css } from '#styled-system/css'
import { SectionCard } from '../account/SectionCard.tsx'
import { useEntitlements } from '../cart/hooks.ts'
import { MyServices } from '../service-orders/MyServices.tsx'
import { button } from '../ui/button.ts'
import { MyCourses } from './MyCourses.tsx'
import { OrderHistory } from './OrderHistory.tsx'

/** A subscription names its plan; a gift has no subscription but its own plan and end; a staff grant has neither. */
function premiumText({ plan, gift }: RouterOutputs['purchases']['entitlements']): string {
  if (plan) return `Premium Plan (${plan.name})`
  if (gift) return `Premium Plan (${gift.planName}, a gift${gift.endsAt ? ` until ${formatDate(gift.endsAt)}` : ''})`
  return 'Premium Plan'
}

export function PurchasesSections() {
  const site = useSite()
  return (
    <>
      {site ? null : <MembershipSection />}
      <div id="my-courses" className={css({ scrollMarginTop: '24' })}>
        <SectionCard title="My courses">
          <MyCourses />
        </SectionCard>
      </div>
      {site ? null : <ServicesSection />}
      <div id="order-history" className={css({ scrollMarginTop: '24' })}>
        <SectionCard title="Order history">
          <OrderHistory />
        </SectionCard>
      </div>
    </>
  )
}

function MembershipSection() {
  const { data } = useEntitlements()
  const trpc = useTRPC()
  const membership = useQuery(trpc.membership.get.queryOptions())
  const ended = membership.data?.canSubscribeAgain ? membership.data : null
  return (
    <SectionCard
      title="Membership"
      description={
        data?.isPremium ? premiumText(data) : ended ? `${ended.planName} plan — ${ended.statusText}` : 'Free account'
      }
    >
      <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '3' })}>
        <Link to="/account/premium" className={button({ variant: 'outline' })}>
          {data?.isPremium ? 'View Premium Account' : 'Premium Account'}
        </Link>
        {data?.plan ? (
          <Link to="/account/membership" className={button({ variant: 'outline' })}>
            Manage membership
          </Link>
        ) : data?.gift || ended ? (
          <Link to="/account/membership" className={button({ variant: 'outline' })}>
            View membership
          </Link>
        ) : null}
      </div>
    </SectionCard>
  )
}

function ServicesSection() {
  const trpc = useTRPC()
  const unread = useQuery(trpc.serviceOrders.unread.queryOptions())
  return (
    <div id="my-services" className={css({ scrollMarginTop: '24' })}>
      <SectionCard
        title="My services"
        description={
          unread.data
            ? `${unread.data} new ${unread.data === 1 ? 'message' : 'messages'} from our team`
            : 'Business services you bought: send your brief, follow the work.'
        }
      >
        <MyServices />
      </SectionCard>
    </div>
  )
}
