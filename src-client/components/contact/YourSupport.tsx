// Above the contact form for a signed-in member: the support their plan gives (the /pricing promise) and, on
// Enterprise, their dedicated success manager, who receives what they send here.
import { useQuery } from '@tanstack/react-query'
import { useSession } from '#client/lib/session.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { css } from '#styled-system/css'

const box = css({ bg: 'brand.50', borderRadius: 'control', p: '3', fontSize: 'sm', mb: '4', display: 'grid', gap: '1' })

export function YourSupport() {
  const trpc = useTRPC()
  const { user } = useSession()
  const support = useQuery({ ...trpc.contact.mySupport.queryOptions(), enabled: Boolean(user) })
  if (!user || support.isPending) return null
  if (support.isError) {
    return (
      <p role="status" className={box}>
        Could not load your support details; your message still reaches us.
      </p>
    )
  }
  const { label, replyWithinHours, planName, manager, tier } = support.data
  return (
    <section aria-label="Your support" data-testid="your-support" className={box}>
      <p>
        <strong>Your support: {label}</strong>
        {planName ? ` (your ${planName} plan)` : ''}. We reply within {replyWithinHours} hours
        {tier === 'dedicated' ? ', day or night.' : '.'}
      </p>
      {manager ? (
        <p>
          Your success manager: {manager.name} ({manager.email}) receives your messages.
        </p>
      ) : null}
    </section>
  )
}
