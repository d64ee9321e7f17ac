// /studio/webhooks: the school owner's outgoing webhooks (decision 0061) — endpoints with their events, the signing
// secret (reveal, copy, rotate with 24 hours' overlap), a test event, and each endpoint's delivery log with Replay.
// The server checks the owner and the Enterprise plan on every call; this page only shows the answers.
import { useMutation, useQuery, useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute, Link } from '@tanstack/react-router'
import { useState } from 'react'
import { StudioPage } from '#client/components/studio/StudioPage.tsx'
import { button } from '#client/components/ui/button.ts'
import { useSubmitForm } from '#client/components/ui/field-errors.tsx'
import { FormAlert, TextField } from '#client/components/ui/form.tsx'
import { panel as card, panelHeading as heading } from '#client/components/ui/panel.ts'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { EmptyState, Spinner } from '#client/components/ui/states.tsx'
import { notify, notifyError, reloadThenToast } from '#client/components/ui/toaster.tsx'
import { errorMessage } from '#client/lib/errors.ts'
import { SCRIPT_ONLY_FORM } from '#client/lib/native-form.ts'
import { submitWhilePending, whilePending } from '#client/lib/while-pending.ts'
import { formatDate } from '#shared/dates.ts'
import {
  createWebhookEndpointInput,
  WEBHOOK_EVENT_DESCRIPTIONS,
  type WebhookEventType,
} from '#shared/schemas/webhooks.ts'
import { css } from '#styled-system/css'

export const Route = createFileRoute('/studio/webhooks')({
  loader: ({ context }) => context.queryClient.ensureQueryData(context.trpc.webhooks.panel.queryOptions()),
  head: () => ({ meta: [{ title: 'Webhooks | SkillForge Studio' }] }),
  errorComponent: routeError('Could not load your webhooks'),
  component: WebhooksPage,
})

const actions = css({ display: 'flex', gap: '2', flexWrap: 'wrap', alignItems: 'center' })
const mono = css({ fontFamily: 'mono', fontSize: 'sm', overflowWrap: 'anywhere' })

function WebhooksPage() {
  const { trpc } = Route.useRouteContext()
  const { data: panel } = useSuspenseQuery(trpc.webhooks.panel.queryOptions())
  return (
    <StudioPage
      title="Webhooks"
      intro={
        <>
          Your systems hear of orders, enrolments, completions, quizzes and questions in your school's courses as they
          happen, signed per the Standard Webhooks specification.
        </>
      }
    >
      {panel.included ? (
        <>
          <AddEndpoint eventTypes={panel.eventTypes} allowHttpLoopback={panel.allowHttpLoopback} />
          {panel.endpoints.length === 0 ? (
            <EmptyState title="No endpoints yet">
              <p>Add the URL your system receives webhooks at.</p>
            </EmptyState>
          ) : (
            panel.endpoints.map((endpoint) => <Endpoint key={endpoint.id} endpoint={endpoint} />)
          )}
        </>
      ) : (
        <EmptyState title="Webhooks come with the Enterprise plan">
          <p>
            <Link to="/pricing" className={css({ textDecoration: 'underline' })}>
              See Pricing
            </Link>{' '}
            to upgrade.
          </p>
        </EmptyState>
      )}
    </StudioPage>
  )
}

function EventChoices({ eventTypes, chosen }: { eventTypes: string[]; chosen?: string[] }) {
  return (
    <fieldset className={css({ display: 'flex', flexDir: 'column', gap: '1' })}>
      <legend className={css({ fontWeight: 'medium', mb: '1' })}>Events</legend>
      {eventTypes.map((type) => (
        <label key={type} className={css({ display: 'flex', gap: '2', alignItems: 'flex-start' })}>
          <input
            type="checkbox"
            name="eventTypes"
            value={type}
            defaultChecked={chosen ? chosen.includes(type) : true}
          />
          <span>
            <code className={mono}>{type}</code> — {WEBHOOK_EVENT_DESCRIPTIONS[type as WebhookEventType] ?? type}
          </span>
        </label>
      ))}
    </fieldset>
  )
}

function AddEndpoint({ eventTypes, allowHttpLoopback }: { eventTypes: string[]; allowHttpLoopback: boolean }) {
  const { trpc } = Route.useRouteContext()
  const queryClient = useQueryClient()
  const create = useMutation(trpc.webhooks.create.mutationOptions())
  const form = useSubmitForm({
    fields: ['url', 'description'],
    schema: createWebhookEndpointInput,
    read: (data) => ({
      url: String(data.get('url') ?? ''),
      description: String(data.get('description') ?? ''),
      eventTypes: data.getAll('eventTypes').map(String),
    }),
    send: async (input, element) => {
      await create.mutateAsync(input)
      element.reset()
      await queryClient.invalidateQueries({ queryKey: trpc.webhooks.panel.queryKey() })
    },
    done: 'Endpoint added',
  })
  return (
    <form {...SCRIPT_ONLY_FORM} {...form.formProps} aria-labelledby="add-heading" className={card}>
      <h2 id="add-heading" className={heading}>
        Add an endpoint
      </h2>
      <FormAlert>{form.formError}</FormAlert>
      <TextField
        label="Endpoint URL"
        name="url"
        type="url"
        required
        maxLength={2000}
        error={form.errors.url}
        hint={
          allowHttpLoopback
            ? 'https://…, or http:// on this machine (127.0.0.1) while testing.'
            : 'Starts with https://'
        }
      />
      <TextField label="Description (optional)" name="description" maxLength={200} error={form.errors.description} />
      <EventChoices eventTypes={eventTypes} />
      <button type="submit" className={button({})} {...submitWhilePending(create.isPending)}>
        {create.isPending ? <Spinner label="Adding" /> : null}
        {create.isPending ? 'Adding…' : 'Add endpoint'}
      </button>
    </form>
  )
}

type EndpointView = {
  id: string
  url: string
  description: string
  eventTypes: string[]
  enabled: boolean
  disabledReason: string | null
  previousSecretUntil: Date | string | null
}

function Endpoint({ endpoint }: { endpoint: EndpointView }) {
  const { trpc } = Route.useRouteContext()
  const queryClient = useQueryClient()
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.pathKey() })
  const [showLog, setShowLog] = useState(false)
  const onError = (error: unknown) => notifyError(error)
  const sendTest = useMutation(
    trpc.webhooks.sendTest.mutationOptions({
      onSuccess: async () => {
        setShowLog(true)
        await refresh()
        notify('success', 'Test event queued')
      },
      onError,
    }),
  )
  const update = useMutation(trpc.webhooks.update.mutationOptions({ onSuccess: refresh, onError }))
  const remove = useMutation(trpc.webhooks.remove.mutationOptions(reloadThenToast(refresh, 'Endpoint removed')))
  const label = endpoint.description || endpoint.url
  return (
    <section aria-label={`Endpoint ${label}`} className={card}>
      <h2 className={heading}>{label}</h2>
      <p className={mono}>{endpoint.url}</p>
      <p>
        Status: <strong>{endpoint.enabled ? 'Enabled' : 'Disabled'}</strong>
        {endpoint.disabledReason ? ` — ${endpoint.disabledReason}` : ''}
      </p>
      <p className={css({ color: 'fg.muted', overflowWrap: 'anywhere' })}>Events: {endpoint.eventTypes.join(', ')}</p>
      <Secret endpointId={endpoint.id} previousSecretUntil={endpoint.previousSecretUntil} />
      <div className={actions}>
        <button
          type="button"
          className={button({ size: 'sm' })}
          disabled={!endpoint.enabled}
          {...whilePending(sendTest.isPending, 'onClick', () => sendTest.mutate({ endpointId: endpoint.id }))}
        >
          Send test event
        </button>
        <button
          type="button"
          className={button({ variant: 'outline', size: 'sm' })}
          // The button keeps focus while it changes to Enable/Disable.
          {...whilePending(update.isPending, 'onClick', () =>
            update.mutate({
              endpointId: endpoint.id,
              description: endpoint.description,
              eventTypes: endpoint.eventTypes as WebhookEventType[],
              enabled: !endpoint.enabled,
            }),
          )}
        >
          {endpoint.enabled ? 'Disable' : 'Enable'}
        </button>
        <button
          type="button"
          className={button({ variant: 'outline', size: 'sm' })}
          aria-expanded={showLog}
          onClick={() => setShowLog(!showLog)}
        >
          {showLog ? 'Hide delivery log' : 'Delivery log'}
        </button>
        <button
          type="button"
          className={button({ variant: 'outline', size: 'sm' })}
          {...whilePending(remove.isPending, 'onClick', () => {
            if (window.confirm(`Remove the endpoint ${endpoint.url}?`)) remove.mutate({ endpointId: endpoint.id })
          })}
        >
          Remove
        </button>
      </div>
      {showLog ? <DeliveryLog endpointId={endpoint.id} /> : null}
    </section>
  )
}

function Secret({
  endpointId,
  previousSecretUntil,
}: {
  endpointId: string
  previousSecretUntil: Date | string | null
}) {
  const { trpc } = Route.useRouteContext()
  const queryClient = useQueryClient()
  const [secret, setSecret] = useState<string | null>(null)
  const reveal = useMutation(
    trpc.webhooks.revealSecret.mutationOptions({
      onSuccess: (data) => setSecret(data.secret),
      onError: (error) => notifyError(error),
    }),
  )
  const rotate = useMutation(
    trpc.webhooks.rotateSecret.mutationOptions({
      onSuccess: async (data) => {
        setSecret(data.secret)
        await queryClient.invalidateQueries({ queryKey: trpc.webhooks.panel.queryKey() })
        notify('success', 'Secret rotated: the previous one keeps signing for 24 hours')
      },
      onError: (error) => notifyError(error),
    }),
  )
  async function copy() {
    if (!secret) return
    try {
      await navigator.clipboard.writeText(secret)
      notify('success', 'Secret copied')
    } catch {
      notify('error', 'Could not copy: select the secret and copy it')
    }
  }
  return (
    <div className={css({ display: 'flex', flexDir: 'column', gap: '2' })}>
      <p>
        Signing secret:{' '}
        <code className={mono} data-testid="webhook-secret">
          {secret ?? 'whsec_••••••••'}
        </code>
      </p>
      {previousSecretUntil ? (
        <p className={css({ color: 'fg.muted' })}>
          The previous secret also signs until {formatDate(previousSecretUntil, 'localTime')}.
        </p>
      ) : null}
      <div className={actions}>
        {secret ? (
          <>
            <button type="button" className={button({ variant: 'outline', size: 'sm' })} onClick={copy}>
              Copy secret
            </button>
            <button
              type="button"
              className={button({ variant: 'outline', size: 'sm' })}
              onClick={() => setSecret(null)}
            >
              Hide secret
            </button>
          </>
        ) : (
          <button
            type="button"
            className={button({ variant: 'outline', size: 'sm' })}
            {...whilePending(reveal.isPending, 'onClick', () => reveal.mutate({ endpointId }))}
          >
            Reveal secret
          </button>
        )}
        <button
          type="button"
          className={button({ variant: 'outline', size: 'sm' })}
          {...whilePending(rotate.isPending, 'onClick', () => {
            if (window.confirm('Rotate the secret? The current one keeps signing for 24 hours.'))
              rotate.mutate({ endpointId })
          })}
        >
          Rotate secret
        </button>
      </div>
    </div>
  )
}

const STATUS_TEXT = { delivered: 'Delivered', failed: 'Failed', retrying: 'Retrying', pending: 'Pending' } as const

function DeliveryLog({ endpointId }: { endpointId: string }) {
  const { trpc } = Route.useRouteContext()
  const queryClient = useQueryClient()
  const log = useQuery({
    ...trpc.webhooks.deliveries.queryOptions({ endpointId }),
    // While deliveries are on their way the log refreshes itself.
    refetchInterval: (query) =>
      query.state.data?.some((row) => row.status === 'pending' || row.status === 'retrying') ? 2000 : false,
  })
  const replay = useMutation(
    trpc.webhooks.replay.mutationOptions(
      reloadThenToast(
        () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.deliveries.queryKey({ endpointId }) }),
        'Replay queued',
      ),
    ),
  )
  if (log.isPending) return <Spinner label="Loading deliveries" />
  if (log.isError) return <FormAlert>{errorMessage(log.error)}</FormAlert>
  if (log.data.length === 0) return <p className={css({ color: 'fg.muted' })}>No deliveries yet.</p>
  return (
    <ul aria-label="Delivery log" className={css({ display: 'flex', flexDir: 'column', gap: '2' })}>
      {log.data.map((row) => (
        <li
          key={row.id}
          className={css({
            display: 'flex',
            gap: '2',
            flexWrap: 'wrap',
            justifyContent: 'space-between',
            borderTopWidth: '1px',
            borderColor: 'line',
            pt: '2',
          })}
        >
          <span className={css({ minW: 0, overflowWrap: 'anywhere' })}>
            <code className={mono}>{row.eventType}</code> · <strong>{STATUS_TEXT[row.status]}</strong>
            {row.lastStatusCode ? ` (HTTP ${row.lastStatusCode})` : ''} · {row.attempts}{' '}
            {row.attempts === 1 ? 'attempt' : 'attempts'}
            {row.isReplay ? ' · replay' : ''}
            <br />
            <span className={css({ color: 'fg.muted', fontSize: 'sm' })}>
              {formatDate(row.createdAt, 'localTime')}
              {row.lastError ? ` · ${row.lastError}` : ''}
              {row.nextAttemptAt ? ` · next try ${formatDate(row.nextAttemptAt, 'localTime')}` : ''}
            </span>
          </span>
          <button
            type="button"
            className={button({ variant: 'outline', size: 'sm' })}
            {...whilePending(replay.isPending, 'onClick', () => replay.mutate({ deliveryId: row.id }))}
          >
            Replay
          </button>
        </li>
      ))}
    </ul>
  )
}
