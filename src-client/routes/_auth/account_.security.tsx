import { useQuery } from '@tanstack/react-query'
import { createFileRoute, Link } from '@tanstack/react-router'
import { DataExportSection } from '#client/components/account/DataExportSection.tsx'
import { DeleteAccountSection } from '#client/components/account/DeleteAccountSection.tsx'
import { PasskeysSection } from '#client/components/account/PasskeysSection.tsx'
import { SchoolSignInsSection } from '#client/components/account/SchoolSignInsSection.tsx'
import { SessionsSection } from '#client/components/account/SessionsSection.tsx'
import { TwoFactorSection } from '#client/components/account/TwoFactorSection.tsx'
import { PageIntro } from '#client/components/layout/PageIntro.tsx'
import { Container } from '#client/components/ui/layout.tsx'
import { ErrorState, LoadingState } from '#client/components/ui/states.tsx'
import { css } from '#styled-system/css'

export const Route = createFileRoute('/_auth/account_/security')({
  loader: ({ context: { queryClient, trpc } }) =>
    Promise.all([
      queryClient.prefetchQuery(trpc.security.overview.queryOptions()),
      queryClient.prefetchQuery(trpc.schoolSso.linked.queryOptions()),
    ]),
  head: () => ({ meta: [{ title: 'Security | SkillForge' }] }),
  component: SecurityPage,
})

function SecurityPage() {
  const { trpc } = Route.useRouteContext()
  const overview = useQuery(trpc.security.overview.queryOptions())
  return (
    <main>
      <PageIntro title="Security">
        <p>
          Two-factor authentication, passkeys, the devices signed in to your account, a copy of your data, and deleting
          your account.{' '}
          <Link to="/account" className={css({ textDecoration: 'underline' })}>
            Back to My Account
          </Link>
        </p>
      </PageIntro>
      <Container className={css({ py: '10', display: 'flex', flexDir: 'column', gap: '8' })}>
        {overview.isPending ? (
          <LoadingState label="Loading your security settings…" />
        ) : overview.isError ? (
          <ErrorState
            title="Could not load your security settings"
            error={overview.error}
            onRetry={() => overview.refetch()}
          />
        ) : (
          <>
            <TwoFactorSection overview={overview.data} />
            <PasskeysSection overview={overview.data} />
            <SessionsSection sessions={overview.data.sessions} />
            <SchoolSignInsSection />
            <DataExportSection confirm={overview.data.confirm} />
            <DeleteAccountSection />
          </>
        )}
      </Container>
    </main>
  )
}
