// A school team member's pages (/member/{schoolId} and its API keys): the person's membership of the school named in
// the address, from their memberships (loaded by each route), and what a page says when they are not on its team.
import { useSuspenseQuery } from '@tanstack/react-query'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { EmptyState } from '../ui/states.tsx'

/** The person's membership of this school, or undefined when they are not on its team. */
export function useSchoolMembership(schoolId: string) {
  const trpc = useTRPC()
  const { data: memberships } = useSuspenseQuery(trpc.schools.memberships.queryOptions())
  return memberships.find((m) => m.schoolId === schoolId)
}

export function NotOnTeam() {
  return (
    <EmptyState title="You are not on this school’s team">
      <p>Ask the school’s owner for an invitation.</p>
    </EmptyState>
  )
}
