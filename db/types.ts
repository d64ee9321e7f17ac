// The Database interface Kysely is typed with. One interface per table; columns in snake_case.
import type { ColumnType, Generated, GeneratedAlways } from 'kysely'
import type { IntakeForm } from '../src-shared/schemas/service-brief.ts'

/** jsonb column: read as T, written as a JSON string (node-postgres would turn a JS array into a PG array). */
export type Json<T> = ColumnType<T, string, string>
/** A JSON column with a default: optional on insert. */
export type GeneratedJson<T> = ColumnType<T, string | undefined, string>
export type CreatedAt = ColumnType<Date, Date | string | undefined, never>
export type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>

/** Merged watched ranges of a video, [start, end] in seconds, sorted and non-overlapping. */
export type WatchedRange = [number, number]
export type LessonKind = 'article' | 'video' | 'quiz'
/** A course's life: a creator's draft goes to review, back with changes requested, or on sale; archived by staff. */
export type CourseStatus = 'draft' | 'in_review' | 'changes_requested' | 'published' | 'unpublished' | 'archived'
export interface ProcessStep {
  step: number
  title: string
  description: string
}
export interface Faq {
  question: string
  answer: string
}
export interface PaypalOptions {
  enabled: boolean
  clientId: string
  hostedButtonId: string
}
/** A comparison-table cell: a tick, a cross, or a short text such as '10 GB'. */
export type ComparisonValue = boolean | string

export interface CategoriesTable {
  id: Generated<string>
  slug: string
  name: string
  description: string
  icon: string
  position: Generated<number>
  created_at: CreatedAt
}

export interface InstructorsTable {
  id: Generated<string>
  name: string
  title: Generated<string>
  bio: Generated<string>
  image_url: Generated<string>
  /** The profile's address: /instructors/{slug}. */
  slug: string
  /** The creator this profile belongs to; null for the seed's house instructors, run by staff. */
  user_id: string | null
  links: GeneratedJson<InstructorLinks>
  created_at: CreatedAt
}

export interface InstructorLinks {
  website?: string
  linkedin?: string
  youtube?: string
}

export interface CoursesTable {
  id: string
  title: string
  description: Generated<string>
  category_id: string
  instructor_id: string | null
  instructor_name: string
  image_url: Generated<string>
  /** The list price the catalogue filters and sorts by: the price in `currency` (0: free). Kept from the two below. */
  price_minor: number
  original_price_minor: number | null
  currency: Generated<string>
  /** What a buyer pays in USD / GBP (null: not sold in that currency; both null: free or an older row's list price). */
  price_usd_minor: Generated<number | null>
  price_gbp_minor: Generated<number | null>
  rating: Generated<number>
  review_count: Generated<number>
  students_count: Generated<number>
  level: Generated<string>
  duration_minutes: Generated<number>
  lessons_count: Generated<number>
  language: Generated<string>
  certificate: Generated<boolean>
  what_you_will_learn: Json<string[]>
  requirements: Json<string[]>
  /** Whether an active Premium subscription opens this course (catalog owns it; admin course dialog). */
  included_in_premium: Generated<boolean>
  /** Whether the course's buyers (not only Premium members) may save its lessons for offline. */
  offline_for_buyers: Generated<boolean>
  status: Generated<CourseStatus>
  /** The creator who owns the course; null for a house course run by staff. */
  owner_id: string | null
  subtitle: Generated<string>
  featured: Generated<boolean>
  published_at: Date | null
  created_at: CreatedAt
  updated_at: UpdatedAt
  /** Generated: title and instructor words plus the filter lexemes (migration 2026_11_24_1500). */
  search_vector: ColumnType<string, never, never>
}

/** Published courses per filter group, kept by a trigger on courses. */
export interface CatalogFacetCountsTable {
  category_id: string
  price_band: number
  rating_floor: number
  duration_band: number
  courses: number
}

/** Published courses per word of their title or instructor and filter group, kept by a trigger on courses. */
export interface CatalogWordCountsTable extends CatalogFacetCountsTable {
  word: string
}

/** Every word ever seen in a course title or instructor name (search terms expand to these). */
export interface CatalogSearchWordsTable {
  word: string
}

export interface ServicesTable {
  id: string
  title: string
  description: string
  category_id: string
  image_url: Generated<string>
  featured: Generated<boolean>
  what_you_get: Json<string[]>
  requirements: Json<string[]>
  process_steps: Json<ProcessStep[]>
  faqs: Json<Faq[]>
  paypal: Json<PaypalOptions | null>
  /** The service's intake form (src-shared/schemas/service-brief.ts); null: the generic one. */
  intake_form: Json<IntakeForm | null> | null
  position: Generated<number>
  created_at: CreatedAt
  updated_at: UpdatedAt
}

export interface ServicePackagesTable {
  id: Generated<string>
  service_id: string
  position: number
  name: string
  price_minor: number
  currency: 'USD' | 'GBP'
  description: string
  features: Json<string[]>
  processing_time: string
  /** 'month' for packages billed monthly (seo-management); null for one-off packages. */
  billing_interval: 'month' | 'year' | null
  /** Business days from a submitted brief to the due date. */
  processing_days: Generated<number>
  /** How many revisions the buyer may request after a delivery. */
  revisions: Generated<number>
}

export interface PlansTable {
  id: string
  name: string
  description: string
  monthly_price_minor: number
  annual_price_minor: number
  currency: Generated<string>
  features: Json<string[]>
  is_popular: Generated<boolean>
  badge: string | null
  position: number
}

export interface PlanComparisonFeaturesTable {
  id: Generated<number>
  position: number
  name: string
  starter: Json<ComparisonValue>
  professional: Json<ComparisonValue>
  enterprise: Json<ComparisonValue>
}

export interface TestimonialsTable {
  id: Generated<number>
  position: number
  content: string
  author: string
  role: string
  image_url: string
}

export interface PromoVideosTable {
  id: Generated<number>
  position: number
  title: string
  description: string
  poster_url: string
  video_url: string
}

/** A person's data export (issue 28): a private ZIP built by a job, theirs to download for 7 days. */
export interface DataExportsTable {
  id: Generated<string>
  user_id: string
  requested_by: string | null
  status: Generated<'pending' | 'ready' | 'failed' | 'expired'>
  storage_key: string | null
  size_bytes: number | null
  attempts: Generated<number>
  created_at: CreatedAt
  ready_at: Date | null
  expires_at: Date | null
}

/** A person's request to delete their account (privacy/deletions.ts is its only writer). */
export interface AccountDeletionsTable {
  user_id: string
  requested_by: string | null
  requested_at: Date
  /** The end of the cool-off: the deletion job erases the account after it. */
  erase_after: Date
  /** When the "deleted tomorrow" reminder was queued. */
  reminded_at: Date | null
  erased_at: Date | null
  /** When every Stripe customer of the person was deleted at Stripe; null while one is still to go. */
  stripe_deleted_at: Date | null
}

export interface UserPasskeysTable {
  id: Generated<string>
  user_id: string
  /** base64url. */
  credential_id: string
  /** COSE public key. */
  public_key: Uint8Array
  /** The authenticator's signature counter last seen (0 when it keeps none). */
  counter: ColumnType<string, number | string, number | string>
  /** Comma-separated AuthenticatorTransport values. */
  transports: string
  name: string
  created_at: Date
  last_used_at: Date | null
}

export interface WebauthnChallengesTable {
  /** base64url; the primary key, consumed by one DELETE. */
  challenge: string
  purpose: 'register' | 'sign_in'
  user_id: string | null
  expires_at: Date
}

export interface UsersTable {
  id: Generated<string>
  email: string
  email_verified: Generated<boolean>
  password_hash: string | null
  first_name: Generated<string>
  last_name: Generated<string>
  avatar_url: string | null
  role: Generated<'customer' | 'viewer' | 'editor' | 'admin' | 'super_admin'>
  /** Whether their courses' news comes by e-mail: a drip section opening, a live session scheduled (on by default). */
  course_update_mails: Generated<boolean>
  /** When the address changed, until the Stripe customers of their plans have it too (flows/email-change.ts); else null. */
  stripe_email_due_at: Date | null
  /** Set while staff suspend the account (flows/account-suspension.ts): no session is made or accepted for it. */
  suspended_at: Date | null
  /** The staff member who suspended it (null once lifted, or their account is gone). */
  suspended_by: string | null
  /** The reason the person was told, while suspended. */
  suspension_reason: string | null
  created_at: CreatedAt
  updated_at: UpdatedAt
}

export interface SessionsTable {
  id: string
  user_id: string
  /** SHA-256 of the token's secret part; the secret itself is never stored. */
  secret_hash: Uint8Array
  remember: Generated<boolean>
  expires_at: Date
  last_seen_at: Generated<Date>
  created_at: CreatedAt
  /** The browser's User-Agent at sign-in (shown as device and browser in the sessions list). */
  user_agent: string | null
  /** The client address's network ("203.0.113.0/24", IPv6 /48), never the address itself. */
  ip_network: string | null
  /** The school domain it was made on (accepted there only); null for the platform's host. */
  site_host: string | null
}

export interface UserTotpTable {
  user_id: string
  /** The TOTP key, sealed (auth/totp-secret.ts): AES-256-GCM when TWO_FACTOR_KEY is set. */
  secret: string
  /** Null while enrolment waits for the first code. */
  confirmed_at: Date | null
  /** The 30-second step of the last accepted code: a code of this step or earlier is never accepted again. */
  last_used_step: number | null
  failed_attempts: Generated<number>
  locked_until: Date | null
  created_at: CreatedAt
}

export interface UserRecoveryCodesTable {
  id: Generated<string>
  user_id: string
  /** SHA-256 of the normalised code; the code itself is shown once and never stored. */
  code_hash: Uint8Array
  used_at: Date | null
  created_at: CreatedAt
}

export interface PendingLoginsTable {
  id: string
  user_id: string
  secret_hash: Uint8Array
  remember: Generated<boolean>
  expires_at: Date
  created_at: CreatedAt
}

export interface KnownDevicesTable {
  user_id: string
  device_key: string
  first_seen_at: Generated<Date>
  last_seen_at: Generated<Date>
}

/** A staff member's note about a customer, on the customer page (contact/customer-notes.ts). */
export interface CustomerNotesTable {
  id: Generated<string>
  user_id: string
  /** Null once the author's account is gone. */
  author_id: string | null
  body: string
  created_at: CreatedAt
}

/** This person wants no news of this course by e-mail (users/course-news.ts); the others' news still comes. */
export interface CourseNewsMutesTable {
  user_id: string
  course_id: string
  created_at: CreatedAt
}

/** A one-click unsubscribe link of one mail: its SHA-256, whose mails of which course it stops (mail/unsubscribe-links.ts). */
export interface MailUnsubscribeLinksTable {
  token_hash: string
  user_id: string
  /** course_news: a course's news to a learner; question_digest: an instructor's daily digest of the course's questions. */
  list: 'course_news' | 'question_digest'
  course_id: string
  created_at: CreatedAt
}

export interface MailOutboxTable {
  id: Generated<string>
  kind: string
  to_address: string
  subject: string
  text_body: string
  html_body: string | null
  /** Where replies go (the sender of a contact message); null: to MAIL_FROM. */
  reply_to: string | null
  status: Generated<'pending' | 'sent' | 'logged' | 'failed'>
  attempts: Generated<number>
  last_error: string | null
  next_attempt_at: Generated<Date>
  created_at: CreatedAt
  sent_at: Date | null
  /** The queue job delivering it; null until the relay hands the row to the queue. */
  job_id: string | null
  /** A List-Unsubscribe address (a cart reminder's), sent as that header. */
  list_unsubscribe: string | null
  /** A calendar invitation sent with the mail (a live session's .ics), and its METHOD (REQUEST or CANCEL). */
  calendar_ics: string | null
  calendar_method: string | null
  /** The sender's display name (a white-label school's), with MAIL_FROM's address; null: MAIL_FROM as it is. */
  from_name: string | null
}

/** What an order line is; a bundle is a cart line only (an order holds its courses, see bundle_id). */
export type OrderItemKind = 'course' | 'service_package' | 'plan'
export type CartItemKind = OrderItemKind | 'bundle'
export type BillingCycle = 'monthly' | 'annual'
/** How a buyer reached a course page: a catalogue search result, or browsing the catalogue (null: direct). */
export type SalesChannel = 'search' | 'catalogue'
export type OrderStatus =
  | 'pending'
  | 'awaiting_transfer'
  | 'paid'
  | 'failed'
  | 'cancelled'
  | 'expired'
  | 'partially_refunded'
  | 'refunded'
  | 'disputed'
export type PaymentMethod = 'card' | 'paypal' | 'bank_transfer' | 'free'

export interface CartItemsTable {
  id: Generated<string>
  user_id: string
  kind: CartItemKind
  course_id: string | null
  service_package_id: string | null
  plan_id: string | null
  billing_cycle: BillingCycle | null
  bundle_id: string | null
  /** A course line: the currency the buyer chose to pay in (null: the course's list currency). */
  currency: Generated<'USD' | 'GBP' | null>
  /** A course line: how the buyer reached the course page (null: direct). */
  channel: Generated<SalesChannel | null>
  /** Generated: kind:id. Unique per user, so a duplicate cannot be inserted even by concurrent requests. */
  item_key: GeneratedAlways<string>
  added_at: CreatedAt
}

/** Several courses sold at one price (promotions/bundles.ts). owner_id null: made by staff, any course. */
export interface BundlesTable {
  id: Generated<string>
  slug: string
  title: string
  description: Generated<string>
  owner_id: string | null
  currency: 'USD' | 'GBP'
  price_minor: number
  published: Generated<boolean>
  created_by: string | null
  created_at: CreatedAt
  updated_at: UpdatedAt
}

export interface BundleCoursesTable {
  bundle_id: string
  course_id: string
  position: Generated<number>
}

export interface OrdersTable {
  id: Generated<string>
  user_id: string
  reference: string
  currency: 'USD' | 'GBP'
  method: PaymentMethod
  status: Generated<OrderStatus>
  subtotal_minor: number
  tax_minor: Generated<number>
  total_minor: number
  stripe_session_id: string | null
  stripe_subscription_id: string | null
  paid_at: Date | null
  /** The id (xid8, as text) of the transaction that last set paid_at (a trigger): the REST API's sync order. */
  paid_xid: ColumnType<string, never, never>
  cancelled_at: Date | null
  status_changed_by: string | null
  /** What the buyer gave at checkout for the invoice (name and e-mail default to the account's). */
  billing_name: string | null
  billing_email: string | null
  billing_company: string | null
  billing_address: string | null
  billing_vat_number: string | null
  stripe_payment_intent_id: string | null
  /** Money taken (set when paid) and given back; a check keeps refunded_minor <= captured_minor. */
  captured_minor: Generated<number>
  refunded_minor: Generated<number>
  expired_at: Date | null
  /**
   * 'cart': checkout's order (one pending per cart and currency); 'renewal': a membership renewal order; 'gift': one
   * course bought for someone else (promotions/gifts.ts).
   */
  source: Generated<'cart' | 'renewal' | 'gift'>
  /** The coupon's discount on the whole order (the sum of its lines' discount_minor), and its code. */
  discount_minor: Generated<number>
  coupon_code: Generated<string | null>
  /** The tax Stripe Tax computed, per jurisdiction (empty without STRIPE_TAX or without a breakdown). */
  tax_lines: GeneratedJson<TaxLine[]>
  created_at: CreatedAt
  updated_at: UpdatedAt
}

export interface OrderItemsTable {
  id: Generated<string>
  order_id: string
  kind: OrderItemKind
  course_id: string | null
  service_package_id: string | null
  plan_id: string | null
  item_key: string
  billing_cycle: BillingCycle | null
  recurring_interval: 'month' | 'year' | null
  title: string
  detail: Generated<string>
  unit_price_minor: number
  /** A course bought in a bundle: the bundle, and its title as sold; unit_price_minor is the course's allocated share. */
  bundle_id: string | null
  bundle_title: string | null
  /** The line's share of the order's coupon discount (largest remainder), stored once: the line's price is
   * unit_price_minor - discount_minor for the invoice, refunds, the gateways and the creator's share. */
  discount_minor: Generated<number>
  /** A course line: how the buyer reached the course page, copied from the cart line (null: direct). */
  channel: Generated<SalesChannel | null>
  /** Set when the line was given back (the refund that did it). */
  refund_id: string | null
  refunded_at: Date | null
  /** A recurring line of a checkout that started a free trial: Stripe charged nothing for it (it paid 0). */
  free_trial: Generated<boolean>
}

export interface RefundsTable {
  id: Generated<string>
  order_id: string
  amount_minor: number
  /** 'dispute': money the buyer's bank took back through a lost chargeback. */
  method: 'stripe' | 'manual' | 'dispute'
  /** Stripe's refund id, or the reference staff typed for a PayPal or bank refund. */
  reference: string | null
  stripe_refund_id: string | null
  reason: string | null
  created_by: string | null
  created_at: CreatedAt
  /** A partial refund made in the Stripe dashboard names no lines: staff have not yet said which it gave back. */
  needs_line_assignment: Generated<boolean>
}

export interface DocumentCountersTable {
  kind: 'INV' | 'CN'
  year: number
  last_number: number
}

export interface DocumentParty {
  name: string
  email?: string
  company?: string | null
  address?: string | null
  companyNumber?: string | null
  vatNumber?: string | null
}
export interface DocumentLine {
  title: string
  detail?: string
  quantity: number
  unitMinor: number
  amountMinor: number
  orderItemId?: string | null
}
export interface TaxLine {
  name: string
  amountMinor: number
}

export interface InvoicesTable {
  id: Generated<string>
  number: string
  user_id: string
  order_id: string | null
  stripe_invoice_id: string | null
  currency: string
  seller: Json<DocumentParty>
  buyer: Json<DocumentParty>
  lines: Json<DocumentLine[]>
  tax_lines: Json<TaxLine[]>
  subtotal_minor: number
  tax_minor: number
  total_minor: number
  issued_at: CreatedAt
}

export interface CreditNotesTable {
  id: Generated<string>
  number: string
  invoice_id: string
  /** The order's refund it gives back, or (exactly one of the two) a subscription invoice's refund. */
  refund_id: string | null
  subscription_refund_id: string | null
  user_id: string
  currency: string
  lines: Json<DocumentLine[]>
  total_minor: number
  /** The part of the total that was tax (lines sum to total − tax); 0 on notes issued before 2026-12-15. */
  tax_minor: Generated<number>
  issued_at: CreatedAt
}

export interface OrderDisputesTable {
  /** Stripe's dispute id (dp_…). */
  id: string
  /** The order whose payment is disputed; null for a renewal's (subscription_invoice_id): exactly one is set. */
  order_id: string | null
  subscription_invoice_id: string | null
  /** Stripe's dispute status as last heard of (needs_response, won, lost…). */
  status: string
  closed: Generated<boolean>
  created_at: CreatedAt
  updated_at: UpdatedAt
}

export interface RefundRequestsTable {
  id: Generated<string>
  order_item_id: string
  order_id: string
  user_id: string
  reason: string
  /** The bundle of the line asked from: the request covers that bundle's lines of the order (decision 0149). */
  bundle_id: string | null
  status: Generated<'open' | 'approved' | 'declined'>
  decision_reason: string | null
  decided_by: string | null
  decided_at: Date | null
  created_at: CreatedAt
}

export interface ProcessedStripeEventsTable {
  id: string
  type: string
  /** 'ignored': acknowledged but not applied (not ours, unreadable, or a type the shop does not handle). */
  outcome: Generated<'processed' | 'ignored'>
  reason: string | null
  processed_at: CreatedAt
}

export type GrantKind = 'course' | 'premium' | 'service'
export type GrantSource = 'order_item' | 'subscription' | 'staff' | 'free_enrolment'
export type RevokeReason = 'refund' | 'dispute' | 'cancellation' | 'expiry' | 'lapse'

/** The access ledger (access/ is its only writer): one right of one user, from one source. */
export interface AccessGrantsTable {
  id: Generated<string>
  user_id: string
  kind: GrantKind
  course_id: string | null
  service_package_id: string | null
  source: GrantSource
  order_id: string | null
  order_item_id: string | null
  subscription_id: string | null
  granted_by: string | null
  starts_at: Generated<Date>
  /** Null: no end. */
  ends_at: Date | null
  revoked_at: Date | null
  revoked_reason: RevokeReason | null
  restored_at: Date | null
  created_at: CreatedAt
  /** The creating transaction's id (xid8, as text): the REST API’s sync order (decision 0094). */
  created_xid: ColumnType<string, never, never>
  updated_at: UpdatedAt
  /** Generated: right and source. Unique per user, so the same grant cannot be inserted twice. */
  grant_key: GeneratedAlways<string>
}

export interface SubscriptionsTable {
  id: Generated<string>
  user_id: string
  plan_id: string
  billing_cycle: BillingCycle
  status: 'trialing' | 'active' | 'past_due' | 'cancelled'
  order_id: string | null
  stripe_subscription_id: string | null
  renews_at: Date | null
  created_at: CreatedAt
  updated_at: UpdatedAt
  stripe_customer_id: string | null
  /** The price of one billing cycle. */
  amount_minor: number | null
  currency: string | null
  trial_ends_at: Date | null
  cancel_at_period_end: Generated<boolean>
  cancel_reason: string | null
  ended_at: Date | null
  /** Why it ended: the member (or staff) cancelled, or it was not paid. */
  end_reason: 'cancellation' | 'lapse' | 'refund' | null
  /** The latest period end a paid invoice (or the trial, or a paid manual order) covers. */
  paid_through: Date | null
  /** The latest period end an invoice failed to pay for. */
  failed_through: Date | null
  /** Stripe's status in the newest subscription snapshot applied, and that event's time. */
  stripe_status: string | null
  stripe_snapshot_at: Date | null
  /** current_period_end in that snapshot. */
  stripe_period_end: Date | null
  /** The invoice whose payment problem was last e-mailed (one e-mail per invoice). */
  payment_issue_invoice: string | null
  trial_reminder_sent_at: Date | null
  /** The renews_at a renewal reminder (and a manual renewal order) was sent for. */
  renewal_reminder_for: Date | null
  renewal_order_id: string | null
  /** Set on a plan bought twice before one live subscription per user was enforced: the one kept. */
  duplicate_of: string | null
  /** When an admin's End membership at the period's end began (claimed while Stripe is asked); null when none runs. */
  staff_end_claimed_at: Date | null
}

/** A paid invoice of a subscription (Stripe's, or a paid manual renewal order). */
export interface SubscriptionInvoicesTable {
  id: Generated<string>
  /** The membership it billed, or (exactly one of the two) the recurring service order (decision 0104). */
  subscription_id: string | null
  service_order_id: string | null
  user_id: string
  stripe_invoice_id: string | null
  order_id: string | null
  amount_minor: number
  /** The part of amount_minor that is tax (Stripe Tax). */
  tax_minor: Generated<number>
  currency: string
  period_start: Date | null
  period_end: Date | null
  billing_reason: string | null
  paid_at: Date
  created_at: CreatedAt
  /** The payment that paid it (Stripe's payment intent, or its charge when there is no intent): its refunds find it. */
  stripe_payment_intent_id: string | null
  stripe_charge_id: string | null
}

/** A refund of a paid subscription invoice (charge.refunded of its payment), once per Stripe refund. */
export interface SubscriptionInvoiceRefundsTable {
  id: Generated<string>
  subscription_invoice_id: string
  /** The Stripe refund it records, or (dispute_id) the lost dispute that took the money back: exactly one is set. */
  stripe_refund_id: string | null
  dispute_id: string | null
  amount_minor: number
  /** The part of amount_minor that was tax: the invoice's tax in proportion (largest remainder), stored once. */
  tax_minor: number
  currency: string
  refunded_at: Date
  created_at: CreatedAt
}

export type ServiceOrderStatus =
  | 'brief_needed'
  | 'submitted'
  | 'in_progress'
  | 'delivered'
  | 'revision_requested'
  | 'completed'
  | 'cancelled'

export interface ServiceOrdersTable {
  id: Generated<string>
  user_id: string
  order_id: string
  service_package_id: string | null
  service_id: string | null
  title: string
  status: Generated<ServiceOrderStatus>
  processing_days: Generated<number>
  revisions_allowed: Generated<number>
  revisions_used: Generated<number>
  /** The intake form's answers: a draft until brief_submitted_at is set. */
  brief: ColumnType<Record<string, unknown>, string | undefined, string>
  brief_submitted_at: Date | null
  due_at: Date | null
  assignee_id: string | null
  delivered_at: Date | null
  completed_at: Date | null
  cancelled_at: Date | null
  created_at: CreatedAt
  updated_at: UpdatedAt
  /** A monthly package: one period (and one report) per paid month. */
  recurring: Generated<boolean>
  /** The Stripe subscription that bills a recurring order by card. */
  stripe_subscription_id: string | null
  /** When a cancelled subscription's last paid period ends (the order closes then). */
  ends_at: Date | null
}

/** One paid month of a recurring service order, with its own delivery (the monthly report). */
export interface ServiceOrderPeriodsTable {
  id: Generated<string>
  service_order_id: string
  number: number
  stripe_invoice_id: string | null
  starts_at: Date
  ends_at: Date
  /** When the period's report is due: the period's end. */
  due_at: Date
  delivery_id: string | null
  delivered_at: Date | null
  created_at: CreatedAt
}

/** A staff member saw a buyer's message (each staff member has their own unread marks). */
export interface ServiceOrderMessageReadsTable {
  message_id: string
  user_id: string
  read_at: Generated<Date>
}

export interface ServiceOrderEventsTable {
  id: Generated<string>
  service_order_id: string
  from_status: ServiceOrderStatus | null
  to_status: ServiceOrderStatus
  actor_id: string | null
  created_at: CreatedAt
}

export interface ServiceOrderDeliveriesTable {
  id: Generated<string>
  service_order_id: string
  note: string
  delivered_by: string | null
  created_at: CreatedAt
}

export interface ServiceOrderMessagesTable {
  id: Generated<string>
  service_order_id: string
  author_id: string | null
  from_staff: boolean
  /** Internal notes: staff only, never shown to the buyer nor e-mailed. */
  internal: Generated<boolean>
  body: string
  /** When the other side (the buyer, or any staff member) first saw it. */
  read_at: Date | null
  created_at: CreatedAt
}

export interface ServiceOrderFilesTable {
  id: Generated<string>
  service_order_id: string
  purpose: 'brief' | 'message' | 'delivery'
  /** A key under storage's private prefix: never served at a public URL. */
  storage_key: string
  file_name: string
  content_type: string
  size_bytes: number
  uploaded_by: string | null
  message_id: string | null
  delivery_id: string | null
  created_at: CreatedAt
}

export interface ContactMessagesTable {
  id: Generated<string>
  name: string
  email: string
  subject: string
  message: string
  created_at: CreatedAt
  /** The signed-in sender, if any (a message keeps its tier when the account goes). */
  user_id: string | null
  /** The support the sender's plan gave them when they wrote (src-shared/support.ts). */
  support_tier: Generated<'email' | 'priority' | 'dedicated'>
  reply_due_at: Date
  answered_at: Date | null
  answered_by: string | null
}

/** An Enterprise member's dedicated success manager: one staff member each. */
export interface SuccessManagersTable {
  member_id: string
  manager_id: string
  /** Set again when the member is given another manager. */
  assigned_at: ColumnType<Date, Date | string | undefined, Date>
}

/** A staff member's answer to a contact message, sent from the support inbox (decision 0100). */
export interface ContactRepliesTable {
  id: Generated<string>
  message_id: string
  /** Who wrote it (null once their account is gone). */
  staff_id: string | null
  body: string
  created_at: CreatedAt
  /** The answer's mail in the outbox, whose status the support dialog shows; null before 2026-12-29 or once purged. */
  mail_id: string | null
}

/** A member's live chat with the staff (decision 0099); at most one open per member. */
export interface ChatConversationsTable {
  id: Generated<string>
  /** The member's chat; null for a visitor's (decision 0103), who is named below instead. */
  user_id: string | null
  /** A visitor's chat: the name and address they gave, and the SHA-256 of the token their cookie holds. */
  visitor_name: string | null
  visitor_email: string | null
  visitor_token_hash: string | null
  /** The staff member who took the chat; null while it waits. */
  assigned_to: string | null
  created_at: CreatedAt
  last_message_at: ColumnType<Date, Date | string | undefined, Date>
  closed_at: Date | null
  /** 'inbox': nobody joined, so it was left as a contact message (decision 0101). */
  closed_by: 'member' | 'staff' | 'inbox' | null
  /** The support inbox message it became ('inbox'). */
  contact_message_id: string | null
}

/** The plan change a member was last shown, used once by the change (subscriptions/change-quotes.ts, decision 0135). */
export interface PlanChangeQuotesTable {
  subscription_id: string
  plan_id: string
  billing_cycle: BillingCycle
  proration_at: Date
  amount_due_minor: number
  quoted_at: Date
}

/** Who is writing a resumable upload now (storage/tus-lock.ts, decision 0113). */
export interface TusUploadLocksTable {
  upload_id: string
  holder: string
  expires_at: Date
  release_requested: Generated<boolean>
}

/** When a staff member last had the live chat desk open (decision 0102). */
export interface ChatDeskPresenceTable {
  user_id: string
  seen_at: ColumnType<Date, Date | string | undefined, Date>
  /** The desk's "Available for chats", kept until they change it (decision 0102); only available members count. */
  available: Generated<boolean>
}

export interface ChatMessagesTable {
  id: Generated<string>
  conversation_id: string
  /** The staff member who wrote it (null for the member, or a staff member whose account is gone). */
  staff_id: string | null
  from_staff: boolean
  body: string
  created_at: CreatedAt
}

export interface AuthTokensTable {
  /** SHA-256 of the token (hex); the token itself is only in the e-mail. */
  token_hash: string
  user_id: string
  /** confirm_action: an e-mailed code that stands in for the password of an account without one. */
  purpose: 'verify_email' | 'reset_password' | 'confirm_action' | 'change_email'
  expires_at: Date
  used_at: Date | null
  /** verify_email: the password hash and names of the sign-up that asked for this link, applied when it is used. */
  signup_password_hash: string | null
  signup_first_name: string | null
  signup_last_name: string | null
  /** verify_email: SHA-256 (hex) of the signing-up browser's cookie; elsewhere the link asks for the sign-up's password. */
  signup_browser_hash: string | null
  /** change_email: the address the link proves, which the account moves to when it is used (else null). */
  new_email: string | null
  created_at: CreatedAt
}

export interface OAuthAccountsTable {
  provider: 'google' | 'facebook'
  provider_user_id: string
  user_id: string
  created_at: CreatedAt
}

export interface CatalogVersionTable {
  id: Generated<boolean>
  /** Bumped by a trigger on every statement that changes courses (bigint: read as a string). */
  version: ColumnType<string, never, never>
}

export interface AuditLogTable {
  id: Generated<string>
  actor_id: string | null
  actor_email: string
  /** e.g. 'course.create', 'team.role' */
  action: string
  entity_type: string
  entity_id: string
  before: Json<unknown> | null
  after: Json<unknown> | null
  created_at: CreatedAt
}

export interface TeamInvitationsTable {
  id: Generated<string>
  email: string
  first_name: Generated<string>
  last_name: Generated<string>
  role: 'viewer' | 'editor' | 'admin'
  /** SHA-256 of the e-mailed token; the token itself is never stored. */
  token_hash: Uint8Array
  invited_by: string | null
  expires_at: Date
  accepted_at: Date | null
  created_at: CreatedAt
}

export interface CourseSectionsTable {
  id: Generated<string>
  course_id: string
  position: number
  title: string
  created_at: CreatedAt
}

export interface LessonsTable {
  id: Generated<string>
  course_id: string
  section_id: string
  /** Order within its section. */
  position: number
  title: string
  duration_seconds: Generated<number>
  is_preview: Generated<boolean>
  kind: Generated<LessonKind>
  body_markdown: Generated<string>
  /** A video file in storage (its key), or null. */
  video_key: string | null
  /** A YouTube or Vimeo address, or null. */
  video_url: string | null
  /** The uploaded video's length read from the file on the server; the lesson's duration follows it when set. */
  video_duration_seconds: number | null
  /** Added to a published course and not yet approved: learners do not see it. */
  pending_review: Generated<boolean>
  /**
   * When learners could first see it: when written (the default), again when its review is approved. Null on rows
   * from before the column, whose created_at stands in ("N lessons added since you completed").
   */
  live_at: Generated<Date | null>
  created_at: CreatedAt
  updated_at: UpdatedAt
}

export interface CreatorsTable {
  user_id: string
  instructor_id: string
  approved_by: string | null
  created_at: CreatedAt
}

export type CreatorApplicationStatus = 'submitted' | 'approved' | 'declined'

export interface CreatorApplicationAttachment {
  key: string
  name: string
  contentType: string
  sizeBytes: number
}

export interface CreatorApplicationsTable {
  id: Generated<string>
  user_id: string
  headline: string
  category_ids: GeneratedJson<string[]>
  proposal: string
  links: GeneratedJson<InstructorLinks>
  attachment: ColumnType<CreatorApplicationAttachment | null, string | null | undefined, string | null>
  status: Generated<CreatorApplicationStatus>
  decision_reason: string | null
  decided_by: string | null
  decided_at: Date | null
  created_at: CreatedAt
}

export interface CourseInstructorsTable {
  course_id: string
  user_id: string
  role: 'owner' | 'co'
  /** This instructor's part of the course's creator share, in basis points (the course's rows sum to 10,000). */
  share_basis_points: Generated<number>
  created_at: CreatedAt
}

export type CourseSubmissionStatus = 'pending' | 'approved' | 'changes_requested' | 'withdrawn'

export interface ReviewComment {
  item: string
  comment: string
}

export interface CourseSubmissionsTable {
  id: Generated<string>
  course_id: string
  kind: 'first' | 'revision'
  status: Generated<CourseSubmissionStatus>
  changes: GeneratedJson<Record<string, unknown>>
  comments: GeneratedJson<ReviewComment[]>
  submitted_by: string | null
  decided_by: string | null
  decided_at: Date | null
  created_at: CreatedAt
}

/** The columns of a creator's e-mailed, single-use invitation to a team (the token itself is never stored). */
interface CreatorInviteColumns {
  id: Generated<string>
  email: string
  /** SHA-256 of the e-mailed token. */
  token_hash: Uint8Array
  invited_by: string | null
  expires_at: Date
  accepted_at: Date | null
  accepted_by: string | null
  created_at: CreatedAt
}

/** An owner's invitation of a co-instructor to one course. */
export interface CourseInstructorInvitesTable extends CreatorInviteColumns {
  course_id: string
}

/** A school's invitation to take one of its courses (decision 0128): the REST API's enrolment of someone new. */
export interface CourseEnrolmentInvitesTable extends CreatorInviteColumns {
  course_id: string
}

/** A creator's school: its public page /s/{slug}; one per creator (the owner). */
export interface SchoolsTable {
  id: Generated<string>
  owner_id: string
  name: string
  slug: string
  created_at: CreatedAt
  updated_at: Generated<Date>
}

export type SchoolMemberRole = 'instructor' | 'finance' | 'support'

/** How the last DNS check of a TXT proof (a custom domain's, an SSO e-mail domain's) ended. */
export type DnsCheckOutcome = 'verified' | 'missing' | 'mismatch' | 'failed'

/**
 * A TXT proof's state (decisions 0063, 0091): verified until its record has been definitely missing or wrong for the
 * grace (creators/dns-proofs.ts), then lapsed; a DNS failure changes nothing.
 */
interface DnsProofColumns {
  verified_at: Date | null
  checked_at: Date | null
  last_outcome: DnsCheckOutcome | null
  /** The first of the current run of definite failures (no record, wrong value) of a verified proof. */
  failing_since: Date | null
  /** When the proof lapsed: its record stayed gone past the grace (the reason in last_outcome). */
  lapsed_at: Date | null
}

/**
 * A school's own domain (decision 0063): served once a TXT record at _skillforge-verify.<host> holds the token, while
 * it keeps holding it (re-checked; migration 2026_12_13_0100).
 */
export interface SchoolDomainsTable extends DnsProofColumns {
  school_id: string
  hostname: string
  verification_token: string
  created_at: CreatedAt
}

/** A school's white-label brand (decision 0063), shown while the owner's plan includes it. */
export interface SchoolBrandsTable {
  school_id: string
  display_name: string
  brand_color: string
  logo_url: string | null
  updated_at: Generated<Date>
}

/** A person the owner added to the school's team, with one role. */
export interface SchoolMembersTable {
  school_id: string
  user_id: string
  role: SchoolMemberRole
  added_by: string | null
  created_at: CreatedAt
}

/** An e-mailed invitation to a school's team (single use, 7 days). */
export interface SchoolInvitesTable extends CreatorInviteColumns {
  school_id: string
  role: SchoolMemberRole
}

/** A school's API key (decision 0060): only the SHA-256 of the key is stored; the prefix names it in lists. */
export interface ApiKeysTable {
  id: Generated<string>
  school_id: string
  name: string
  prefix: string
  secret_hash: Uint8Array
  scopes: string[]
  expires_at: Date | null
  last_used_at: Date | null
  revoked_at: Date | null
  created_by: string | null
  created_at: CreatedAt
}

/** A school's OpenID Connect provider (decision 0062); the client secret sealed at rest, never sent to a client. */
export interface SchoolSsoTable {
  school_id: string
  issuer: string
  client_id: string
  /** "gcm:<iv>:<sealed>" under TWO_FACTOR_KEY, or "raw:<base64>" when it is unset (as TOTP keys). */
  client_secret_sealed: string
  /** Lower-case domains whose addresses may sign in ("example.com"). */
  allowed_domains: GeneratedJson<string[]>
  enabled: Generated<boolean>
  require_for_members: Generated<boolean>
  created_at: CreatedAt
  updated_at: Generated<Date>
}

/**
 * One e-mail domain a school's SSO allows, with its own DNS proof (decision 0062): the token the owner publishes as a
 * TXT record at _skillforge-sso.<domain>. An existing account is linked only when its exact domain is verified here.
 */
export interface SchoolSsoDomainProofsTable extends DnsProofColumns {
  school_id: string
  domain: string
  token: string
  created_at: CreatedAt
}

/** A provider identity (issuer + subject) of a school's SSO linked to a local account by its verified e-mail. */
export interface SchoolSsoLinksTable {
  school_id: string
  issuer: string
  subject: string
  user_id: string
  created_at: CreatedAt
  last_used_at: Generated<Date>
}

/** A school sign-in waiting for the account's consent, held for the browser session that met it (decision 0062). */
export interface SchoolSsoPendingLinksTable {
  session_id: string
  user_id: string
  school_id: string
  issuer: string
  subject: string
  /** The address the provider asserted (shown on the consent page). */
  email: string
  /** Where the sign-in was headed (a path on this site). */
  redirect: Generated<string>
  expires_at: Date
  created_at: CreatedAt
}

/** A sign-in handed from the platform's host to a school's domain (decision 0063): a one-time code's hash. */
export interface SignInHandoffsTable {
  code_hash: string
  user_id: string
  /** The school domain the session is for. */
  site_host: string
  /** SHA-256 (base64url) of the secret the domain's browser holds: binds the code to the browser that asked. */
  challenge: string
  remember: Generated<boolean>
  expires_at: Date
  used_at: Date | null
  created_at: CreatedAt
}

/** A school's outgoing webhook endpoint (decision 0061). */
export interface WebhookEndpointsTable {
  id: Generated<string>
  school_id: string
  url: string
  description: Generated<string>
  event_types: ColumnType<string[], string[], string[]>
  /** Standard Webhooks secret (whsec_…): kept as is, since every delivery is signed with it. */
  secret: string
  /** The secret before the last rotation, still signing until previous_secret_expires_at. */
  previous_secret: string | null
  previous_secret_expires_at: Date | null
  enabled: Generated<boolean>
  disabled_reason: string | null
  /** The first failure since the last success: 3 days of failures disable the endpoint. */
  failing_since: Date | null
  created_at: CreatedAt
  updated_at: UpdatedAt
}

/** One event for one endpoint: its payload, its attempts and outcome. */
export interface WebhookDeliveriesTable {
  id: Generated<string>
  endpoint_id: string
  event_id: string
  event_type: string
  payload: Json<Record<string, unknown>>
  attempts: Generated<number>
  next_attempt_at: Date | null
  job_id: string | null
  last_status_code: number | null
  last_error: string | null
  last_attempt_at: Date | null
  delivered_at: Date | null
  failed_at: Date | null
  replay_of: string | null
  created_at: CreatedAt
}

export interface CourseDraftsTable {
  course_id: string
  fields: GeneratedJson<Record<string, unknown>>
  updated_at: UpdatedAt
}

/** One creator's part of a sale's creators' share (co-instructors split by the owner's percentages at the sale). */
export interface EarningSharePartsTable {
  order_item_id: string
  creator_id: string
  share_basis_points: number
  creator_minor: number
}

export interface EarningSharesTable {
  order_item_id: string
  order_id: string
  course_id: string
  creator_id: string
  currency: 'USD' | 'GBP'
  net_minor: number
  fee_basis_points: number
  platform_fee_minor: number
  processor_fee_minor: Generated<number>
  creator_minor: number
  plan_id: string | null
  hold_until: Date
  created_at: CreatedAt
  /** Paid through Stripe and the processor's fee not taken yet (migration 2026_11_29_0250). */
  processor_fee_due: Generated<boolean>
  /** The open card dispute holding the share back (migration 2026_12_24_0000): no release, no payout meanwhile. */
  dispute_hold_id: string | null
}

export type LedgerKind =
  | 'sale'
  | 'refund'
  | 'dispute'
  | 'hold_release'
  | 'processor_fee'
  | 'pool_share'
  | 'payout'
  | 'transfer_reversal'
  | 'adjustment'
  | 'dispute_hold'
  | 'dispute_hold_end'

export type LedgerAccount =
  | 'creator_pending'
  | 'creator_available'
  | 'creator_paid_out'
  | 'customer_payments'
  | 'platform_fees'
  | 'processor_fees'
  | 'premium_pool'

/** Course-page views and add-to-cart per course and UTC day ('YYYY-MM-DD'), counted by the server in batches. */
export interface CourseEventCountsTable {
  course_id: string
  day: ColumnType<string, string, string>
  views: Generated<number>
  /** Of views: from a catalogue search result, from browsing the catalogue (the rest direct). */
  views_search: Generated<number>
  views_catalogue: Generated<number>
  cart_adds: Generated<number>
}

/** bigint sums: node-postgres reads them as strings; Number() them. */
type BigSum = ColumnType<string | number, number | undefined, number>

/** Sales of a course on one UTC day in one currency (analytics/rollup.ts); a refund on the day it was given. */
export interface AnalyticsSalesDailyTable {
  course_id: string
  day: ColumnType<string, string, string>
  currency: 'USD' | 'GBP'
  gross_minor: BigSum
  discount_minor: BigSum
  refund_minor: BigSum
  platform_fee_minor: BigSum
  net_minor: BigSum
  units: Generated<number>
  units_direct: Generated<number>
  units_coupon: Generated<number>
  units_bundle: Generated<number>
  units_gift: Generated<number>
  units_search: Generated<number>
  units_catalogue: Generated<number>
  refunds: Generated<number>
}

/** The shop's sales per UTC day and currency (the sum of analytics_sales_daily's rows of the day), rolled by the job. */
export type AnalyticsShopSalesDailyTable = Omit<AnalyticsSalesDailyTable, 'course_id'>

/** A block of 2^level UTC days from first_day (aligned on 1970-01-01) whose best sellers the job listed. */
export interface AnalyticsSalesTopBlocksTable {
  level: number
  first_day: ColumnType<string, string, string>
  /** The most units of a course-currency group of the block left out of its list; null when all are listed. */
  rest_max_units: number | null
}

/** A block's most-sold course-currency groups (units over the block), rolled by the job. */
export interface AnalyticsSalesTopTable {
  level: number
  first_day: ColumnType<string, string, string>
  course_id: string
  currency: string
  units: number
}

/** The shop's course-page views and add-to-cart per UTC day (the counters' day summed), rolled by the job. */
export interface AnalyticsShopViewsDailyTable {
  day: ColumnType<string, string, string>
  views: BigSum
  views_search: BigSum
  views_catalogue: BigSum
  cart_adds: BigSum
}

/** Learners of a course by how far they got (cumulative), refreshed by the analytics job. */
export interface AnalyticsCourseProgressTable {
  course_id: string
  started: number
  p25: number
  p50: number
  p75: number
  completed: number
  refreshed_at: Date
}

/** Per lesson: learners who reached and completed it, video stop points in 10-second buckets, quiz passes. */
export interface AnalyticsLessonStatsTable {
  course_id: string
  lesson_id: string
  reached: number
  completed: number
  stop_buckets: ColumnType<number[], string, string>
  quiz_takers: number
  quiz_passers: number
}

/** What the analytics job counted of one learner's lesson (folded in again, by difference, when the learner moves). */
export interface AnalyticsLearnerLessonsTable {
  user_id: string
  course_id: string
  lesson_id: string
  reached: boolean
  completed: boolean
  stop_bucket: number | null
  quiz_taken: boolean
  quiz_passed: boolean
}

/** The lessons the analytics job counted as done by one learner of a course. */
export interface AnalyticsLearnerCoursesTable {
  user_id: string
  course_id: string
  done: number
}

/** How many of a course's learners have done how many lessons (the 25 / 50 / 75 % counts are read from it). */
export interface AnalyticsCourseDoneCountsTable {
  course_id: string
  done: number
  learners: number
}

/** Reviews given to a course on one UTC day (visible ones, as of the rollup) and their stars summed. */
export interface AnalyticsRatingsDailyTable {
  course_id: string
  day: ColumnType<string, string, string>
  reviews: number
  stars: number
}

/** Course lines given back on one UTC day, per currency and reason (the buyer's request, else staff's note). */
export interface AnalyticsRefundReasonsDailyTable {
  course_id: string
  day: ColumnType<string, string, string>
  currency: 'USD' | 'GBP'
  reason: string
  refunds: number
  refund_minor: BigSum
}

export interface AnalyticsRollupStateTable {
  name: string
  value: string
}

export interface LedgerTransactionsTable {
  id: Generated<string>
  key: string
  kind: LedgerKind
  source: string
  memo: Generated<string>
  created_at: CreatedAt
}

export interface LedgerEntriesTable {
  id: Generated<string>
  transaction_id: string
  account: LedgerAccount
  creator_id: string | null
  currency: 'USD' | 'GBP'
  /** bigint: node-postgres reads it as a string; Number() it (amounts stay far below 2^53). */
  amount_minor: ColumnType<string | number, number, never>
  created_at: CreatedAt
}

export interface CreatorPayoutAccountsTable {
  creator_id: string
  stripe_account_id: string
  charges_enabled: Generated<boolean>
  payouts_enabled: Generated<boolean>
  details_submitted: Generated<boolean>
  requirements_due: GeneratedJson<string[]>
  requirements_deadline: Date | null
  disabled_reason: string | null
  stripe_updated_at: Date | null
  created_at: CreatedAt
}

/**
 * 'failed': Stripe refused the last try (nothing made; given up after the try limit). 'unconfirmed': the last try got
 * no answer, so the transfer may exist: still claimed, looked up by every later run (decision 0108). 'withdrawn': a
 * dispute or a refund took back all it claimed before any transfer was made, so it is never sent (decision 0127).
 */
export type PayoutStatus = 'pending' | 'sending' | 'unconfirmed' | 'paid' | 'failed' | 'reversed' | 'withdrawn'

export interface CreatorPayoutsTable {
  id: Generated<string>
  creator_id: string
  /** YYYY-MM: the month the payout run belongs to. */
  month: string
  currency: 'USD' | 'GBP'
  amount_minor: number
  status: Generated<PayoutStatus>
  stripe_account_id: string
  stripe_transfer_id: string | null
  attempts: Generated<number>
  last_error: string | null
  /**
   * The idempotency key the next try must use again, because the last one got no answer and Stripe would answer it with
   * the transfer if it made one (decision 0127). Null when the next try takes a new key: never tried, or Stripe
   * answered the last try (a refusal, a server error) and keeps that answer under its key.
   */
  transfer_key: string | null
  claimed_at: Date | null
  paid_at: Date | null
  created_at: CreatedAt
}

export type CouponKind = 'percent' | 'fixed'
export type CouponScope = 'everything' | 'courses' | 'creator' | 'service_packages' | 'plans'
/** How long a plan coupon discounts the plan (Stripe's coupon durations). */
export type PlanCouponDuration = 'once' | 'repeating' | 'forever'
/** Minor units per currency ({"USD": 1000}). */
export type AmountsByCurrency = Partial<Record<'USD' | 'GBP', number>>

export interface CouponsTable {
  id: Generated<string>
  /** Upper-case: codes are case-insensitive and unique. */
  code: string
  kind: CouponKind
  percent_off: number | null
  amounts_off: GeneratedJson<AmountsByCurrency>
  min_amounts: GeneratedJson<AmountsByCurrency>
  applies_to: CouponScope
  course_ids: GeneratedJson<string[]>
  /** Set for a creator's coupon (their own courses only); null for a store-wide staff coupon. */
  creator_id: string | null
  starts_at: Date | null
  ends_at: Date | null
  max_uses: number | null
  max_uses_per_customer: number | null
  first_purchase_only: Generated<boolean>
  active: Generated<boolean>
  /** Set exactly for a plan coupon (applies_to 'plans'); months only for 'repeating'. */
  plan_duration: PlanCouponDuration | null
  plan_duration_months: number | null
  created_by: string
  created_at: CreatedAt
}

export interface CouponApplicationsTable {
  user_id: string
  coupon_id: string
  applied_at: Generated<Date>
}

export interface CouponRedemptionsTable {
  id: Generated<string>
  coupon_id: string
  order_id: string
  user_id: string
  email_normalized: string
  currency: 'USD' | 'GBP'
  discount_minor: number
  created_at: CreatedAt
}

export interface PayoutSettingsTable {
  id: number
  paused: Generated<boolean>
  paused_by: string | null
  updated_at: UpdatedAt
}

/** Seconds of new watching by Premium members, per month (`YYYY-MM`, UTC), course and member (learning/). */
export interface PremiumWatchTimeTable {
  month: string
  course_id: string
  user_id: string
  seconds: number
  updated_at: UpdatedAt
}

/** A Premium member's watch-time clock (learning/): credited watch time is accounted for up to credited_until, at 1×. */
export interface PremiumWatchClocksTable {
  user_id: string
  credited_until: Date
}

/** One month's Premium pool in one currency (earnings/): the revenue behind it and what was split. */
export interface PremiumPoolMonthsTable {
  month: string
  currency: 'USD' | 'GBP'
  /** bigint: node-postgres reads these as strings; Number() them. */
  revenue_minor: ColumnType<string | number, number, never>
  refunded_minor: ColumnType<string | number, number, never>
  basis_points: number
  pool_minor: ColumnType<string | number, number, never>
  distributed_minor: ColumnType<string | number, number, never>
  watched_seconds: number
  created_at: CreatedAt
}

/** One included course's part of a month's pool (earnings/), credited to its creator under `pool:<month>:…`. */
export interface PremiumPoolSharesTable {
  month: string
  currency: 'USD' | 'GBP'
  course_id: string
  creator_id: string
  watched_seconds: number
  share_minor: number
  created_at: CreatedAt
}

/** A course's pool share as split among its instructors (largest remainder), as their ledgers were credited. */
export interface PremiumPoolSharePartsTable {
  month: string
  currency: 'USD' | 'GBP'
  course_id: string
  creator_id: string
  share_minor: number
}

export interface CreatorUploadsTable {
  /** The tus upload id. */
  id: string
  user_id: string
  /** bigint: read as a string by node-postgres; use Number() (4 GB fits a double exactly). */
  size_bytes: ColumnType<string | number, number, number>
  status: Generated<'uploading' | 'stored' | 'released'>
  storage_key: string | null
  file_name: Generated<string>
  content_type: string | null
  duration_seconds: number | null
  lesson_id: string | null
  created_at: CreatedAt
  finished_at: Date | null
  /** HLS renditions (issue 37): null never asked; 'unavailable' no ffmpeg (plays as uploaded). */
  transcode_status: TranscodeStatus | null
  transcode_percent: Generated<number>
  transcode_job_id: string | null
  /** The renditions' storage prefix (ends with '/'): master.m3u8, <h>p/index.m3u8, <h>p/stream.mp4, poster.jpg. */
  hls_prefix: string | null
  /** The renditions' heights, "360,720". */
  hls_heights: string | null
  transcoded_at: Date | null
  /** A lesson video uploaded by staff (/api/admin/lesson-video): no creator's plan counts it; released when unused. */
  staff_upload: Generated<boolean>
  /** 'application': the sample video of an application to teach (no plan counts it, never a lesson's). */
  purpose: Generated<UploadPurpose>
  /** The course a lesson video was uploaded for (its editors may claim it); null: the uploader's own (decision 0138). */
  course_id: string | null
  /** Whose plan storage counts it: the course owner's for an upload made for a course, else the uploader's. */
  storage_owner_id: string
}

export type UploadPurpose = 'lesson' | 'application'

export type TranscodeStatus = 'queued' | 'processing' | 'ready' | 'failed' | 'unavailable'

export interface LessonAttachmentsTable {
  id: Generated<string>
  lesson_id: string
  position: Generated<number>
  file_name: string
  storage_key: string
  content_type: string
  size_bytes: number
  created_at: CreatedAt
}

export interface LessonProgressTable {
  user_id: string
  course_id: string
  lesson_id: string
  position_seconds: Generated<number>
  watched_ranges: ColumnType<WatchedRange[], string | undefined, string>
  watched_seconds: Generated<number>
  completed_at: Date | null
  updated_at: UpdatedAt
  /** When the row last changed, by the database's clock (a trigger sets it); null on rows from before it existed. */
  changed_at: Generated<Date | null>
  /**
   * The server's moment up to which the watching believed so far is accounted for at 2× playback: a video save may
   * add up to 2 × (now − allowance_from) + 5 s of new watching (flows/save-progress.ts). Null before the row's first
   * video save. updated_at, the player's `sentAt`, only orders resume positions.
   */
  allowance_from: Generated<Date | null>
}

export type AccessSource = 'purchase' | 'premium' | 'staff'

export interface CourseCompletionsTable {
  user_id: string
  course_id: string
  completed_at: CreatedAt
  /** Lessons the course had when it was completed ("N lessons added since you completed"). */
  lesson_count: number
  access_source: AccessSource
}

export interface CertificatesTable {
  id: Generated<string>
  user_id: string
  course_id: string
  learner_name: string
  course_title: string
  instructor_name: string
  issued_at: CreatedAt
  /** The course's final grade (mean of the best scores of its required quizzes), or null without quizzes. */
  grade_percent: Generated<number | null>
}

/** One quiz question with its answer key (never sent to a learner before an attempt is submitted). */
export type QuizQuestion =
  | { id: string; type: 'single' | 'multiple'; prompt: string; explanation: string; options: QuizOption[] }
  | { id: string; type: 'true_false'; prompt: string; explanation: string; answer: boolean }
  | { id: string; type: 'short'; prompt: string; explanation: string; accepted: string[] }
export interface QuizOption {
  id: string
  text: string
  correct: boolean
}
/** A learner's answer to one question: option ids (choice), true/false, or the typed text (short answer). */
export type QuizAnswer = string[] | boolean | string
/** An attempt's order: the questions' ids, and per question its options' ids. */
export interface QuizLayout {
  questions: string[]
  options: Record<string, string[]>
}

export interface QuizzesTable {
  lesson_id: string
  course_id: string
  pass_percent: Generated<number>
  /** Null: unlimited. */
  max_attempts: number | null
  wait_seconds: Generated<number>
  /** Null: untimed. */
  time_limit_seconds: number | null
  shuffle_questions: Generated<boolean>
  shuffle_options: Generated<boolean>
  /** Course completion needs a pass of every required quiz; the final grade averages them. */
  required: Generated<boolean>
  questions: GeneratedJson<QuizQuestion[]>
  updated_at: UpdatedAt
}

export interface QuizAttemptsTable {
  id: Generated<string>
  lesson_id: string
  course_id: string
  user_id: string
  started_at: Date
  /** started_at + the time limit; an attempt not submitted by then is graded as submitted at it. */
  deadline_at: Date | null
  submitted_at: Date | null
  layout: ColumnType<QuizLayout, string, string>
  answers: GeneratedJson<Record<string, QuizAnswer>>
  /** Per question id: answered correctly. */
  results: ColumnType<Record<string, boolean> | null, string | null | undefined, string | null>
  question_count: number
  correct_count: number | null
  score_percent: number | null
  passed: boolean | null
}

export interface CourseReviewsTable {
  id: Generated<string>
  course_id: string
  user_id: string
  /** 1 to 5 stars. */
  rating: number
  /** Optional text (empty when none), at most 2,000 characters. */
  body: Generated<string>
  /** Set when staff hid the review: hidden reviews count nowhere and are listed only to staff and the author. */
  hidden_at: Date | null
  hidden_by: string | null
  /** The author no longer holds the course (refund, dispute): listed and counted nowhere until restored. */
  access_revoked: Generated<boolean>
  created_at: CreatedAt
  updated_at: UpdatedAt
}

/** A course bought as a gift (promotions/gifts.ts is its only writer). */
export interface GiftsTable {
  id: Generated<string>
  order_id: string
  order_item_id: string
  buyer_id: string
  recipient_email: string
  message: Generated<string>
  send_at: Date
  link_origin: string
  paid_at: Date | null
  token_hash: string | null
  mailed_at: Date | null
  mail_count: Generated<number>
  claimed_by: string | null
  claimed_at: Date | null
  /** A gifted plan: the prepaid term in months (1, 3 or 12); null for a gifted course. */
  plan_months: number | null
  /**
   * When a claim found the claiming account already held the gifted course (decision 0146): the gift stays unclaimed
   * and the giver was told. Cleared by a resend to another address.
   */
  recipient_owned_at: Date | null
  /**
   * The account whose verified address `recipient_email` was when it moved to another address (decision 0163): the
   * gift waits for that account and is mailed to its address now. Cleared when the giver sends it to another address.
   */
  recipient_account_id: string | null
  created_at: CreatedAt
  updated_at: UpdatedAt
}

/** A section's drip schedule (catalog/): absent, the section opens at once. */
export interface SectionDripsTable {
  section_id: string
  course_id: string
  /** Opens this many days after the learner's access began. */
  after_days: number | null
  /** Opens on this date (the later of both when both are set). */
  opens_at: Date | null
  created_at: CreatedAt
  updated_at: UpdatedAt
}

/** A buyer's opt-in to one reminder about an order left unpaid (promotions/cart-reminders.ts is its only writer). */
export interface CartRemindersTable {
  id: Generated<string>
  order_id: string
  user_id: string
  opted_in_at: Date
  settled_at: Date | null
  outcome: 'sent' | 'bought' | 'duplicate' | 'unsubscribed' | null
  unsubscribe_hash: string | null
}

/** One "a section opened" mail per learner and section (learning/): the row is the claim. */
export interface DripUnlockMailsTable {
  user_id: string
  section_id: string
  unlocked_at: Date
  sent_at: CreatedAt
}

export interface LessonQuestionsTable {
  id: Generated<string>
  course_id: string
  lesson_id: string
  author_id: string
  title: string
  body_markdown: string
  upvotes: Generated<number>
  answer_count: Generated<number>
  answered_at: Date | null
  /** When the asker was told it was answered (once). */
  answered_mail_at: Date | null
  hidden_at: Date | null
  hidden_by: string | null
  created_at: CreatedAt
}

export interface LessonAnswersTable {
  id: Generated<string>
  question_id: string
  author_id: string
  body_markdown: string
  hidden_at: Date | null
  hidden_by: string | null
  created_at: CreatedAt
}

export interface LessonQuestionVotesTable {
  question_id: string
  user_id: string
  created_at: CreatedAt
}

export interface LessonPostReportsTable {
  id: Generated<string>
  course_id: string
  question_id: string
  /** Null: the question itself is reported. */
  answer_id: string | null
  reporter_id: string
  reason: string
  created_at: CreatedAt
  /** Set when a moderator dismissed the report (the post stays as it is). */
  dismissed_at: Date | null
  dismissed_by: string | null
}

/** An image uploaded for a question or answer under a lesson: private, served to those who may see the lesson. */
export interface LessonPostImagesTable {
  id: Generated<string>
  course_id: string
  lesson_id: string
  uploader_id: string
  storage_key: string
  content_type: string
  size_bytes: number
  /** The question or answer whose body uses it, set when that post is saved; null until then (swept after a day). */
  post_id: string | null
  post_kind: 'question' | 'answer' | null
  created_at: CreatedAt
}

export interface QuestionDigestOptoutsTable {
  course_id: string
  user_id: string
}

/** A live session (issue 34): for a course's learners (course_id) or all Premium members (course_id null). */
export interface LiveSessionsTable {
  id: Generated<string>
  course_id: string | null
  host_id: string
  title: string
  description: string
  starts_at: Date
  duration_minutes: number
  /** IANA time zone the host scheduled it in (the invitation's TZID). */
  time_zone: string
  capacity: number
  /** https only; shown to no one but the host: members go through /live/<id>/join. */
  join_url: string
  sequence: Generated<number>
  cancelled_at: Date | null
  recording_lesson_id: string | null
  recording_url: string | null
  /** When the course's holders were mailed that it is scheduled (once; decision 0142); null: not yet. */
  announced_at: Date | null
  created_at: CreatedAt
  updated_at: Generated<Date>
}

export type LiveRegistrationStatus = 'registered' | 'waitlisted' | 'cancelled'

export interface LiveRegistrationsTable {
  session_id: string
  user_id: string
  status: LiveRegistrationStatus
  requested_at: Generated<Date>
  reminded_at: Date | null
  cancelled_at: Date | null
}

export interface LiveAttendanceTable {
  session_id: string
  user_id: string
  first_joined_at: Date
  last_joined_at: Date
  joins: Generated<number>
}

export interface QuestionDigestsTable {
  course_id: string
  user_id: string
  /** The UTC day (YYYY-MM-DD) the digest covers. */
  day: string
  questions: number
  sent_at: CreatedAt
}

/** One thread per member and course (issue 34): the member writes, the course's instructors answer. */
export interface CourseMessageThreadsTable {
  id: Generated<string>
  course_id: string
  member_id: string
  subject: string
  closed_at: Date | null
  closed_by: string | null
  last_message_at: ColumnType<Date, Date | string | undefined, Date>
  created_at: CreatedAt
}

export interface CourseMessagesTable {
  id: Generated<string>
  thread_id: string
  author_id: string
  from_instructor: boolean
  body: string
  created_at: CreatedAt
}

export interface CourseMessageReadsTable {
  thread_id: string
  user_id: string
  read_at: Date
}

export interface CourseMessageFilesTable {
  id: Generated<string>
  course_id: string
  /** Null until the message that carries it is sent (with message_id). */
  thread_id: string | null
  /** Null until the message that carries it is sent. */
  message_id: string | null
  storage_key: string
  file_name: string
  content_type: string
  size_bytes: number
  uploaded_by: string
  created_at: CreatedAt
}

export interface CourseMessageBlocksTable {
  course_id: string
  member_id: string
  blocked_by: string
  reason: string | null
  created_at: CreatedAt
}

export interface CourseMessageReportsTable {
  thread_id: string
  reporter_id: string
  reason: string
  created_at: CreatedAt
}

export interface CourseMessageMailSettingsTable {
  user_id: string
  daily_digest: boolean
}

export interface CourseMessageDigestsTable {
  user_id: string
  /** The UTC day (YYYY-MM-DD) the digest covers. */
  day: string
  messages: number
  sent_at: CreatedAt
}

export interface Database {
  gifts: GiftsTable
  cart_reminders: CartRemindersTable
  categories: CategoriesTable
  instructors: InstructorsTable
  courses: CoursesTable
  creators: CreatorsTable
  creator_applications: CreatorApplicationsTable
  course_instructors: CourseInstructorsTable
  course_submissions: CourseSubmissionsTable
  course_drafts: CourseDraftsTable
  course_instructor_invites: CourseInstructorInvitesTable
  course_enrolment_invites: CourseEnrolmentInvitesTable
  schools: SchoolsTable
  school_members: SchoolMembersTable
  school_sso: SchoolSsoTable
  school_sso_domain_proofs: SchoolSsoDomainProofsTable
  school_sso_links: SchoolSsoLinksTable
  school_sso_pending_links: SchoolSsoPendingLinksTable
  sign_in_handoffs: SignInHandoffsTable
  school_invites: SchoolInvitesTable
  school_domains: SchoolDomainsTable
  school_brands: SchoolBrandsTable
  api_keys: ApiKeysTable
  webhook_endpoints: WebhookEndpointsTable
  webhook_deliveries: WebhookDeliveriesTable
  creator_uploads: CreatorUploadsTable
  earning_shares: EarningSharesTable
  course_event_counts: CourseEventCountsTable
  analytics_sales_daily: AnalyticsSalesDailyTable
  analytics_shop_sales_daily: AnalyticsShopSalesDailyTable
  analytics_shop_views_daily: AnalyticsShopViewsDailyTable
  analytics_sales_top_blocks: AnalyticsSalesTopBlocksTable
  analytics_sales_top: AnalyticsSalesTopTable
  analytics_course_progress: AnalyticsCourseProgressTable
  analytics_lesson_stats: AnalyticsLessonStatsTable
  analytics_learner_lessons: AnalyticsLearnerLessonsTable
  analytics_learner_courses: AnalyticsLearnerCoursesTable
  analytics_course_done_counts: AnalyticsCourseDoneCountsTable
  analytics_rollup_state: AnalyticsRollupStateTable
  analytics_ratings_daily: AnalyticsRatingsDailyTable
  analytics_refund_reasons_daily: AnalyticsRefundReasonsDailyTable
  earning_share_parts: EarningSharePartsTable
  creator_payout_accounts: CreatorPayoutAccountsTable
  creator_payouts: CreatorPayoutsTable
  payout_settings: PayoutSettingsTable
  coupons: CouponsTable
  coupon_applications: CouponApplicationsTable
  coupon_redemptions: CouponRedemptionsTable
  ledger_transactions: LedgerTransactionsTable
  ledger_entries: LedgerEntriesTable
  premium_watch_time: PremiumWatchTimeTable
  premium_watch_clocks: PremiumWatchClocksTable
  premium_pool_months: PremiumPoolMonthsTable
  premium_pool_shares: PremiumPoolSharesTable
  premium_pool_share_parts: PremiumPoolSharePartsTable
  catalog_facet_counts: CatalogFacetCountsTable
  catalog_search_words: CatalogSearchWordsTable
  catalog_word_counts: CatalogWordCountsTable
  services: ServicesTable
  service_packages: ServicePackagesTable
  plans: PlansTable
  plan_comparison_features: PlanComparisonFeaturesTable
  testimonials: TestimonialsTable
  promo_videos: PromoVideosTable
  users: UsersTable
  data_exports: DataExportsTable
  account_deletions: AccountDeletionsTable
  user_passkeys: UserPasskeysTable
  webauthn_challenges: WebauthnChallengesTable
  sessions: SessionsTable
  user_totp: UserTotpTable
  user_recovery_codes: UserRecoveryCodesTable
  pending_logins: PendingLoginsTable
  known_devices: KnownDevicesTable
  mail_outbox: MailOutboxTable
  mail_unsubscribe_links: MailUnsubscribeLinksTable
  course_news_mutes: CourseNewsMutesTable
  customer_notes: CustomerNotesTable
  cart_items: CartItemsTable
  bundles: BundlesTable
  bundle_courses: BundleCoursesTable
  orders: OrdersTable
  order_items: OrderItemsTable
  processed_stripe_events: ProcessedStripeEventsTable
  access_grants: AccessGrantsTable
  subscriptions: SubscriptionsTable
  subscription_invoices: SubscriptionInvoicesTable
  subscription_invoice_refunds: SubscriptionInvoiceRefundsTable
  service_orders: ServiceOrdersTable
  service_order_events: ServiceOrderEventsTable
  service_order_deliveries: ServiceOrderDeliveriesTable
  service_order_messages: ServiceOrderMessagesTable
  service_order_files: ServiceOrderFilesTable
  service_order_periods: ServiceOrderPeriodsTable
  service_order_message_reads: ServiceOrderMessageReadsTable
  contact_messages: ContactMessagesTable
  success_managers: SuccessManagersTable
  contact_replies: ContactRepliesTable
  chat_conversations: ChatConversationsTable
  chat_messages: ChatMessagesTable
  chat_desk_presence: ChatDeskPresenceTable
  tus_upload_locks: TusUploadLocksTable
  plan_change_quotes: PlanChangeQuotesTable
  auth_tokens: AuthTokensTable
  oauth_accounts: OAuthAccountsTable
  catalog_version: CatalogVersionTable
  audit_log: AuditLogTable
  team_invitations: TeamInvitationsTable
  refunds: RefundsTable
  document_counters: DocumentCountersTable
  invoices: InvoicesTable
  credit_notes: CreditNotesTable
  refund_requests: RefundRequestsTable
  order_disputes: OrderDisputesTable
  course_sections: CourseSectionsTable
  lessons: LessonsTable
  lesson_attachments: LessonAttachmentsTable
  lesson_progress: LessonProgressTable
  course_completions: CourseCompletionsTable
  certificates: CertificatesTable
  quizzes: QuizzesTable
  quiz_attempts: QuizAttemptsTable
  course_reviews: CourseReviewsTable
  section_drips: SectionDripsTable
  drip_unlock_mails: DripUnlockMailsTable
  lesson_questions: LessonQuestionsTable
  lesson_answers: LessonAnswersTable
  lesson_question_votes: LessonQuestionVotesTable
  lesson_post_reports: LessonPostReportsTable
  lesson_post_images: LessonPostImagesTable
  question_digest_optouts: QuestionDigestOptoutsTable
  question_digests: QuestionDigestsTable
  course_message_threads: CourseMessageThreadsTable
  course_messages: CourseMessagesTable
  course_message_reads: CourseMessageReadsTable
  course_message_files: CourseMessageFilesTable
  course_message_blocks: CourseMessageBlocksTable
  course_message_reports: CourseMessageReportsTable
  course_message_mail_settings: CourseMessageMailSettingsTable
  course_message_digests: CourseMessageDigestsTable
  live_sessions: LiveSessionsTable
  live_registrations: LiveRegistrationsTable
  live_attendance: LiveAttendanceTable
}
