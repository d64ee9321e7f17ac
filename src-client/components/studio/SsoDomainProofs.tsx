// The DNS proof of each e-mail domain a school's single sign-on allows (decision 0062): per domain, the TXT record to
// publish, its status (verified, at risk, lapsed, not yet, check failed, with the server's reason; decision 0091) and a
// Check button. A new account is made through the school's sign-in, and an existing one linked, only when its exact
// domain is verified (the message beside an unproven domain says new learners cannot join yet). The server decides
// the status and checks the owner and plan; this list only shows its answers.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { badge } from '#client/components/ui/badge.ts'
import { button } from '#client/components/ui/button.ts'
import { borderedCard } from '#client/components/ui/card.ts'
import { codeBlock } from '#client/components/ui/code.ts'
import { QueryList } from '#client/components/ui/QueryList.tsx'
import { Spinner } from '#client/components/ui/states.tsx'
import { errorMessage } from '#client/lib/errors.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { css, cx } from '#styled-system/css'

type Status = 'verified' | 'failing' | 'lapsed' | 'unchecked' | 'missing' | 'mismatch' | 'failed'

const STATUS: Record<Status, { label: string; tone: 'green' | 'grey' | 'yellow' | 'red' }> = {
  verified: { label: 'Verified', tone: 'green' },
  failing: { label: 'Verified, record missing', tone: 'yellow' },
  lapsed: { label: 'Verification lapsed', tone: 'red' },
  unchecked: { label: 'Not yet verified', tone: 'grey' },
  missing: { label: 'Not yet verified', tone: 'yellow' },
  mismatch: { label: 'Not yet verified', tone: 'yellow' },
  failed: { label: 'Check failed', tone: 'red' },
}

export interface SsoDomainProofRow {
  domain: string
  recordName: string
  recordValue: string
  status: Status
  message: string
}

export function SsoDomainProofs({ canCheck }: { canCheck: boolean }) {
  const trpc = useTRPC()
  const proofs = useQuery(trpc.schoolSso.domainProofs.queryOptions())
  return (
    <QueryList
      query={proofs}
      loading="Loading your e-mail domains…"
      failed="Could not load your e-mail domains"
      empty="No e-mail domains yet"
      emptyAction={<p>Save the provider with its allowed e-mail domains: each one is then proven here.</p>}
    >
      {(rows) => (
        <ul className={css({ display: 'grid', gap: '3', listStyle: 'none', p: 0 })}>
          {rows.map((row) => (
            <ProofItem key={row.domain} row={row} canCheck={canCheck} />
          ))}
        </ul>
      )}
    </QueryList>
  )
}

function ProofItem({ row, canCheck }: { row: SsoDomainProofRow; canCheck: boolean }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const check = useMutation(trpc.schoolSso.checkDomain.mutationOptions())
  const [failure, setFailure] = useState<string | null>(null)
  const id = `sso-domain-${row.domain.replace(/[^a-z0-9]/g, '-')}`
  async function onCheck() {
    if (check.isPending) return
    setFailure(null)
    try {
      const checked = await check.mutateAsync({ domain: row.domain })
      queryClient.setQueryData(trpc.schoolSso.domainProofs.queryKey(), (rows) =>
        rows?.map((one) => (one.domain === checked.domain ? checked : one)),
      )
      await queryClient.invalidateQueries({ queryKey: trpc.schoolSso.domainProofs.queryKey() })
    } catch (error) {
      setFailure(errorMessage(error))
    }
  }
  const status = STATUS[row.status]
  return (
    <li
      className={cx(borderedCard, css({ p: '4', display: 'grid', gap: '3', minW: 0 }))}
      aria-labelledby={`${id}-name`}
      data-testid="sso-domain-proof"
    >
      <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '2', alignItems: 'center' })}>
        <h3 id={`${id}-name`} className={css({ fontWeight: 'semibold', overflowWrap: 'anywhere' })}>
          {row.domain}
        </h3>
        <span className={badge({ tone: status.tone })} data-testid="sso-domain-status">
          {status.label}
        </span>
      </div>
      {row.status === 'verified' ? null : (
        <dl className={css({ display: 'grid', gap: '1' })}>
          <dt className={css({ fontSize: 'sm', color: 'fg.muted' })}>TXT record name</dt>
          <dd>
            <code className={codeBlock} data-testid="sso-domain-record-name">
              {row.recordName}
            </code>
          </dd>
          <dt className={css({ fontSize: 'sm', color: 'fg.muted', mt: '1' })}>TXT record value</dt>
          <dd>
            <code className={codeBlock} data-testid="sso-domain-record-value">
              {row.recordValue}
            </code>
          </dd>
        </dl>
      )}
      <p role="status" aria-live="polite" data-testid="sso-domain-message" className={css({ fontSize: 'sm' })}>
        {failure ?? row.message}
      </p>
      <div>
        <button
          type="button"
          className={button({ variant: 'outline', size: 'sm' })}
          onClick={onCheck}
          // aria-disabled, not disabled: the button keeps keyboard focus while the lookup runs (WCAG 2.4.3).
          aria-disabled={check.isPending || !canCheck}
          disabled={!canCheck}
          aria-label={`Check ${row.domain}`}
        >
          {check.isPending ? <Spinner label={`Checking ${row.domain}`} /> : null}
          {check.isPending ? 'Checking…' : 'Check'}
        </button>
      </div>
    </li>
  )
}
