// The support inbox: contact messages by when their reply is due (a 24/7 dedicated or priority message first), each
// with its sender's support tier; editors and up mark one answered. Below, admins give Enterprise members their
// dedicated success manager (decision 0098). The server checks every role.

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { createFileRoute, useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { AdminDialog } from '#client/components/admin/AdminDialog.tsx'
import { AdminTable, PagedList } from '#client/components/admin/AdminTable.tsx'
import { CustomerLink } from '#client/components/admin/CustomerLink.tsx'
import { FindForm } from '#client/components/admin/FindForm.tsx'
import { FilterSelect } from '#client/components/admin/StatusFilter.tsx'
import { atPage, type StatusPage, statusListRoute } from '#client/components/admin/search.ts'
import { pageHead, pageTitle } from '#client/components/admin/styles.ts'
import { useStaff } from '#client/components/admin/use-staff.ts'
import { MessageItem } from '#client/components/service-orders/MessageItem.tsx'
import { badge } from '#client/components/ui/badge.ts'
import { button } from '#client/components/ui/button.ts'
import { useSubmitForm } from '#client/components/ui/field-errors.tsx'
import { FormAlert, Options, SelectField, TextField } from '#client/components/ui/form.tsx'
import { TitledSection } from '#client/components/ui/layout.tsx'
import { MessageComposer } from '#client/components/ui/MessageComposer.tsx'
import { panel } from '#client/components/ui/panel.ts'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { LoadingState, Spinner } from '#client/components/ui/states.tsx'
import { notify, reloadThenToast } from '#client/components/ui/toaster.tsx'
import { SCRIPT_ONLY_FORM } from '#client/lib/native-form.ts'
import type { Trpc } from '#client/lib/trpc.ts'
import type { RouterOutputs } from '#client/lib/types.ts'
import { submitWhilePending, whilePending } from '#client/lib/while-pending.ts'
import { deliveryLine } from '#shared/admin.ts'
import { formatDate } from '#shared/dates.ts'
import { searchedAddress } from '#shared/schemas/admin.ts'
import { assignSuccessManagerInput } from '#shared/schemas/support.ts'
import { SUPPORT_TIER_INFO, type SupportTier } from '#shared/support.ts'
import { css } from '#styled-system/css'

/** While an answer's mail is queued, the dialog asks how it went this often. */
const DELIVERY_POLL_MS = 5000
const deliveryNote = css({ mt: '1', fontSize: 'xs', color: 'fg.muted' })
const deliveryFailed = css({ mt: '1', fontSize: 'xs', color: 'danger', fontWeight: 'semibold' })
const TONE: Record<SupportTier, 'grey' | 'blue' | 'red'> = { email: 'grey', priority: 'blue', dedicated: 'red' }
// The inbox lists open messages unless ?status=answered. A sender searched for is the page's own state, not its URL
// (components/admin/FindForm.tsx).
const inboxQuery = (trpc: Trpc, { status, page = 1 }: StatusPage<'answered'>, sender?: string) =>
  trpc.admin.support.inbox.queryOptions({ status: status ?? 'open', page, sender })

export const Route = createFileRoute('/admin/_staff/support')({
  head: () => ({ meta: [{ title: 'Support inbox | SkillForge Admin' }] }),
  ...statusListRoute(['answered'], inboxQuery),
  pendingComponent: () => <LoadingState label="Loading the support inbox…" />,
  errorComponent: routeError('Could not load the support inbox'),
  component: SupportInbox,
})

type InboxItem = RouterOutputs['admin']['support']['inbox']['items'][number]

function SupportInbox() {
  const { trpc } = Route.useRouteContext()
  const search = Route.useSearch()
  const navigate = useNavigate({ from: Route.fullPath })
  const queryClient = useQueryClient()
  const { can } = useStaff()
  const [reading, setReading] = useState<InboxItem | null>(null)
  const [sender, setSender] = useState<string>()
  const inbox = useQuery({ ...inboxQuery(trpc, search, sender), placeholderData: keepPreviousData })
  const answer = useMutation(
    trpc.admin.support.markAnswered.mutationOptions(
      reloadThenToast(
        () => queryClient.invalidateQueries({ queryKey: trpc.admin.support.pathKey() }),
        'Marked answered',
      ),
    ),
  )
  const now = Date.now()

  return (
    <>
      <div className={pageHead}>
        <h1 className={pageTitle}>Support inbox</h1>
        <FilterSelect
          label="Messages"
          value={search.status}
          onChange={(status) => void navigate({ search: { status } })}
        >
          <option value="">Open, by reply due</option>
          <option value="answered">Answered</option>
        </FilterSelect>
      </div>
      <FindForm
        landmark="Find one person’s messages"
        label="Sender’s e-mail"
        name="sender"
        type="email"
        placeholder="name@example.com"
        searching={sender !== undefined}
        rule={searchedAddress}
        onFind={(next) => {
          setSender(next)
          void navigate({ search: atPage(1) })
        }}
      />
      <PagedList
        query={inbox}
        loading="Loading the support inbox…"
        failed="Could not load the support inbox"
        empty={emptyInbox(search.status, sender)}
        onPage={(next) => void navigate({ search: atPage(next) })}
      >
        {(data) => (
          <AdminTable columns={['Reply due', 'From', 'Support', 'Subject', 'Actions']}>
            {data.items.map((item) => (
              <InboxRow
                key={item.id}
                item={item}
                now={now}
                onRead={() => setReading(item)}
                answer={can('editor') ? answer : null}
              />
            ))}
          </AdminTable>
        )}
      </PagedList>
      <AdminDialog
        open={reading !== null}
        onOpenChange={(open) => (open ? undefined : setReading(null))}
        title={reading?.subject ?? 'Message'}
        description={reading ? `From ${reading.name} <${reading.email}>` : undefined}
        wide
        footer={
          <button type="button" className={button({ variant: 'outline' })} onClick={() => setReading(null)}>
            Close
          </button>
        }
      >
        <p data-testid="support-message" className={css({ whiteSpace: 'pre-wrap', wordBreak: 'break-word' })}>
          {reading?.message}
        </p>
        {reading ? <Answers messageId={reading.id} canAnswer={can('editor')} /> : null}
      </AdminDialog>
      <SuccessManagers canAssign={can('admin')} />
    </>
  )
}

function emptyInbox(status: 'answered' | undefined, sender: string | undefined) {
  if (sender) return status ? `No answered messages from ${sender}` : `No open messages from ${sender}`
  return status ? 'No answered messages yet' : 'No open messages: every message is answered'
}

/** One message: when its reply is due (or was given), its sender, tier and subject, Read and Mark answered. */
function InboxRow({
  item,
  now,
  onRead,
  answer,
}: {
  item: InboxItem
  now: number
  onRead: () => void
  /** Mark answered, for editors and up (null: the button is not shown). */
  answer: { isPending: boolean; mutate: (input: { id: string }) => void } | null
}) {
  const overdue = !item.answeredAt && new Date(item.replyDueAt).getTime() < now
  return (
    <tr data-testid="support-row">
      <td>
        {formatDate(item.replyDueAt, 'mediumTime')}
        {overdue ? (
          <span className={css({ ml: '2' })}>
            <span className={badge({ tone: 'red' })}>Overdue</span>
          </span>
        ) : null}
        {item.answeredAt ? (
          <p className={css({ fontSize: 'xs', color: 'fg.muted' })}>
            Answered {formatDate(item.answeredAt, 'mediumTime')} by {item.answeredBy ?? 'a former member'}
          </p>
        ) : null}
      </td>
      <td>
        {item.name}
        <p className={css({ fontSize: 'xs', color: 'fg.muted' })}>
          <CustomerLink email={item.email} />
        </p>
      </td>
      <td>
        <span className={badge({ tone: TONE[item.tier] })}>{SUPPORT_TIER_INFO[item.tier].label}</span>
      </td>
      <td>{item.subject}</td>
      <td>
        <div className={css({ display: 'flex', gap: '1' })}>
          <button
            type="button"
            className={button({ variant: 'outline', size: 'sm' })}
            onClick={onRead}
            aria-label={`Read message from ${item.name}: ${item.subject}`}
          >
            Read
          </button>
          {!item.answeredAt && answer ? (
            <button
              type="button"
              className={button({ size: 'sm' })}
              aria-label={`Mark answered: ${item.subject}`}
              {...whilePending(answer.isPending, 'onClick', () => answer.mutate({ id: item.id }))}
            >
              Mark answered
            </button>
          ) : null}
        </div>
      </td>
    </tr>
  )
}

/**
 * The answers sent to a message, each with where its mail stands (queued, sent, failed and why: editors cannot open the
 * outbox), and for editors and up the box to send one: mailed to the sender, kept here, and the first one marks the
 * message answered (decision 0100).
 */
function Answers({ messageId, canAnswer }: { messageId: string; canAnswer: boolean }) {
  const { trpc } = Route.useRouteContext()
  const queryClient = useQueryClient()
  const replies = useQuery({
    ...trpc.admin.support.replies.queryOptions({ id: messageId }),
    // A queued answer is asked after until it is sent or given up (SMTP may be down for a while).
    refetchInterval: (query) =>
      query.state.data?.some((answer) => answer.delivery?.status === 'pending') ? DELIVERY_POLL_MS : false,
  })
  const reply = useMutation(trpc.admin.support.reply.mutationOptions())
  return (
    <section aria-label="Answers" className={css({ mt: '4', display: 'grid', gap: '3' })}>
      {replies.isPending ? (
        <Spinner label="Loading the answers" />
      ) : replies.isError ? (
        <FormAlert>Could not load the answers sent.</FormAlert>
      ) : replies.data.length === 0 ? (
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>No answer sent from here yet.</p>
      ) : (
        <ol className={css({ display: 'grid', gap: '2' })}>
          {replies.data.map((answer) => (
            <MessageItem
              key={answer.id}
              testId="support-answer"
              from="mine"
              sender={`Answer by ${answer.sentBy ?? 'a former member of staff'}`}
              createdAt={answer.sentAt}
              body={answer.body}
              files={[]}
              footer={
                <p
                  data-testid="support-answer-delivery"
                  className={answer.delivery?.status === 'failed' ? deliveryFailed : deliveryNote}
                >
                  Mail to the sender: {deliveryLine(answer.delivery)}
                </p>
              }
            />
          ))}
        </ol>
      )}
      {canAnswer ? (
        <MessageComposer
          maxLength={5000}
          label="Answer this message"
          field="Your answer (mailed to the sender)"
          submit="Send answer"
          sending={reply.isPending}
          onSend={async (body) => {
            await reply.mutateAsync({ id: messageId, body })
            await queryClient.invalidateQueries({ queryKey: trpc.admin.support.pathKey() })
            // Queued in the outbox, not yet delivered: the answer's line below says when it is sent (or fails).
            notify('success', 'Answer saved and queued for sending')
          }}
        />
      ) : null}
    </section>
  )
}

const MANAGER_FIELDS = ['memberEmail', 'managerId'] as const

function SuccessManagers({ canAssign }: { canAssign: boolean }) {
  const { trpc } = Route.useRouteContext()
  const queryClient = useQueryClient()
  const managers = useQuery(trpc.admin.support.managers.queryOptions())
  const team = useQuery({ ...trpc.admin.team.list.queryOptions(), enabled: canAssign })
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.admin.support.managers.queryKey() })
  const assign = useMutation(trpc.admin.support.assignManager.mutationOptions())
  const remove = useMutation(
    trpc.admin.support.removeManager.mutationOptions(reloadThenToast(refresh, 'Manager removed')),
  )
  const form = useSubmitForm({
    fields: MANAGER_FIELDS,
    schema: assignSuccessManagerInput,
    read: (data) => ({
      memberEmail: String(data.get('memberEmail') ?? ''),
      managerId: String(data.get('managerId') ?? ''),
    }),
    send: async (input, element) => {
      await assign.mutateAsync(input)
      await refresh()
      element.reset()
    },
    done: 'Success manager assigned',
  })

  return (
    <TitledSection id="managers-heading" title="Dedicated success managers" className={css({ mt: '8' })}>
      <p className={css({ color: 'fg.muted', fontSize: 'sm', mb: '3' })}>
        Each Enterprise member may have one manager from the staff: they see the manager on the Contact page, and their
        messages are mailed to the manager.
      </p>
      {managers.isPending ? (
        <LoadingState label="Loading success managers…" />
      ) : managers.isError ? (
        <FormAlert>Could not load the success managers.</FormAlert>
      ) : managers.data.length === 0 ? (
        <p className={css({ fontSize: 'sm' })}>No member has a success manager yet.</p>
      ) : (
        <div className={panel}>
          <AdminTable columns={['Member', 'Success manager', 'Since', canAssign ? 'Actions' : '']}>
            {managers.data.map((row) => (
              <tr key={row.memberId} data-testid="manager-row">
                <td>{row.memberEmail}</td>
                <td>{row.managerEmail}</td>
                <td>{formatDate(row.assignedAt, 'medium')}</td>
                <td>
                  {canAssign ? (
                    <button
                      type="button"
                      className={button({ variant: 'outline', size: 'sm' })}
                      aria-label={`Remove the success manager of ${row.memberEmail}`}
                      {...whilePending(remove.isPending, 'onClick', () => remove.mutate({ memberId: row.memberId }))}
                    >
                      Remove
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </AdminTable>
        </div>
      )}
      {canAssign ? (
        <form
          {...SCRIPT_ONLY_FORM}
          {...form.formProps}
          aria-label="Assign a success manager"
          className={css({ display: 'grid', gap: '3', mt: '4', maxW: 'lg' })}
        >
          <FormAlert>{form.formError}</FormAlert>
          <TextField
            label="Enterprise member’s email"
            name="memberEmail"
            type="email"
            required
            maxLength={254}
            error={form.errors.memberEmail}
          />
          <SelectField label="Success manager" name="managerId" required defaultValue="" error={form.errors.managerId}>
            <option value="" disabled>
              Choose a staff member
            </option>
            <Options
              items={team.data}
              value={(member) => member.id}
              label={(member) => `${member.name} (${member.email})`}
            />
          </SelectField>
          <div>
            <button type="submit" className={button({})} {...submitWhilePending(assign.isPending)}>
              {assign.isPending ? 'Assigning…' : 'Assign manager'}
            </button>
          </div>
        </form>
      ) : null}
    </TitledSection>
  )
}
