// A studio feature the creator's plan does not include (bundles, coupons): what it needs, and where the plans are.
import { Link } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { css } from '#styled-system/css'
import { EmptyState } from '../ui/states.tsx'

export function PlanNeeded({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <EmptyState title={title}>
      {children ? <p className={css({ mt: '2' })}>{children}</p> : null}
      <p className={css({ mt: '2' })}>
        <Link to="/pricing" className={css({ textDecoration: 'underline' })}>
          See the plans
        </Link>
      </p>
    </EmptyState>
  )
}
