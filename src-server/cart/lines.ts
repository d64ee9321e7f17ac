// The user's cart resolved against the catalogue: every price comes from the catalogue row, never the client.

import type { BillingCycle, CartItemKind, SalesChannel } from '../../db/types.ts'
import { PLACEHOLDER_IMAGE_URL } from '../../src-shared/constants.ts'
import { priceFor } from '../../src-shared/course-prices.ts'
import type { DB } from '../kernel/db.ts'

export interface CartLine {
  id: string
  kind: CartItemKind
  key: string
  title: string
  detail: string
  image: string
  priceMinor: number
  currency: 'USD' | 'GBP'
  /** Billed again every month or year (plans, monthly service packages); null for one-off items. */
  recurringInterval: 'month' | 'year' | null
  billingCycle: BillingCycle | null
  courseId: string | null
  serviceId: string | null
  packageId: string | null
  planId: string | null
  bundleId?: string | null
  /** Set on a course line the buyer reached from a catalogue search or browsing (else left out: direct). */
  channel?: SalesChannel
  /** The school that sells a course or bundle line (its owner's), else null: the marketplace's (flows/cart-lines.ts). */
  school?: string | null
  /** Set on bundle lines only (other lines leave both out). A bundle's courses the buyer already holds, or also has in the cart on their own: told before paying. */
  bundleOverlap?: { held: string[]; inCart: string[] } | null
  addedAt: string
}

const BILLING_LABEL: Record<BillingCycle, string> = { monthly: 'Billed monthly', annual: 'Billed annually' }

/**
 * The cart's lines priced from the catalogue: one query with left joins (no N+1), newest first as the spec's cart
 * read orders by added_at. A bundle's courses are described by flows/cart-lines.ts, which every reader goes through.
 */
export async function catalogueCartLines(db: DB, userId: string): Promise<CartLine[]> {
  const rows = await db
    .selectFrom('cart_items as ci')
    .leftJoin('courses as c', (join) => join.onRef('c.id', '=', 'ci.course_id').on('c.status', '=', 'published'))
    .leftJoin('service_packages as sp', 'sp.id', 'ci.service_package_id')
    .leftJoin('services as s', 's.id', 'sp.service_id')
    .leftJoin('plans as p', 'p.id', 'ci.plan_id')
    .leftJoin('bundles as b', (join) => join.onRef('b.id', '=', 'ci.bundle_id').on('b.published', '=', true))
    .select([
      'ci.bundle_id',
      'b.title as bundle_title',
      'b.price_minor as bundle_price',
      'b.currency as bundle_currency',
      'ci.id',
      'ci.kind',
      'ci.item_key',
      'ci.billing_cycle',
      'ci.added_at',
      'ci.course_id',
      'ci.service_package_id',
      'ci.plan_id',
      'c.title as course_title',
      'c.instructor_name',
      'c.image_url as course_image',
      'c.price_minor as course_price',
      'c.currency as course_currency',
      'c.price_usd_minor as course_price_usd',
      'c.price_gbp_minor as course_price_gbp',
      'ci.currency as chosen_currency',
      'ci.channel',
      'sp.name as package_name',
      'sp.price_minor as package_price',
      'sp.currency as package_currency',
      'sp.billing_interval',
      's.id as service_id',
      's.title as service_title',
      's.image_url as service_image',
      'p.name as plan_name',
      'p.monthly_price_minor',
      'p.annual_price_minor',
      'p.currency as plan_currency',
    ])
    .where('ci.user_id', '=', userId)
    .orderBy('ci.added_at', 'desc')
    .orderBy('ci.id')
    .execute()

  const lines: CartLine[] = []
  for (const row of rows) {
    const base = {
      id: row.id,
      kind: row.kind,
      key: row.item_key,
      billingCycle: row.billing_cycle,
      courseId: row.course_id,
      packageId: row.service_package_id,
      planId: row.plan_id,
      serviceId: row.service_id,
      addedAt: row.added_at.toISOString(),
    }
    if (row.kind === 'course' && row.course_title !== null && row.course_price !== null) {
      // The buyer's currency when the course is sold in it, else the one it is sold in (decision 0069).
      const price = priceFor(
        {
          price_minor: row.course_price,
          currency: row.course_currency ?? 'USD',
          price_usd_minor: row.course_price_usd,
          price_gbp_minor: row.course_price_gbp,
        },
        row.chosen_currency,
      )
      lines.push({
        ...base,
        title: row.course_title,
        detail: row.instructor_name ?? '',
        image: row.course_image ?? PLACEHOLDER_IMAGE_URL,
        priceMinor: price.priceMinor,
        currency: price.currency,
        recurringInterval: null,
        ...(row.channel ? { channel: row.channel } : {}),
      })
    } else if (row.kind === 'service_package' && row.package_name !== null && row.package_price !== null) {
      lines.push({
        ...base,
        title: `${row.service_title} - ${row.package_name}`,
        detail:
          row.billing_interval === 'month'
            ? `${row.package_name} package, billed monthly`
            : `${row.package_name} package`,
        image: row.service_image ?? PLACEHOLDER_IMAGE_URL,
        priceMinor: row.package_price,
        currency: row.package_currency ?? 'USD',
        recurringInterval: row.billing_interval ?? null,
      })
    } else if (row.kind === 'plan' && row.plan_name !== null && row.billing_cycle) {
      const annual = row.billing_cycle === 'annual'
      lines.push({
        ...base,
        title: `${row.plan_name} Plan`,
        detail: BILLING_LABEL[row.billing_cycle],
        image: '/favicon.svg',
        priceMinor: (annual ? row.annual_price_minor : row.monthly_price_minor) ?? 0,
        currency: row.plan_currency === 'GBP' ? 'GBP' : 'USD',
        recurringInterval: annual ? 'year' : 'month',
      })
    } else if (row.kind === 'bundle' && row.bundle_title !== null && row.bundle_price !== null) {
      lines.push({
        ...base,
        bundleId: row.bundle_id,
        title: row.bundle_title,
        detail: 'Bundle',
        image: '/favicon.svg',
        priceMinor: row.bundle_price,
        currency: row.bundle_currency === 'GBP' ? 'GBP' : 'USD',
        recurringInterval: null,
      })
    }
    // A course no longer published is left out: it cannot be bought.
  }
  return lines
}

export interface CurrencyTotal {
  currency: 'USD' | 'GBP'
  itemCount: number
  subtotalMinor: number
  taxMinor: number
  totalMinor: number
}

/** Totals per currency: GBP service packages are never summed with USD courses. Tax is fixed at 0 (spec §9). */
export function totalsByCurrency(lines: readonly CartLine[]): CurrencyTotal[] {
  const totals = new Map<CartLine['currency'], CurrencyTotal>()
  for (const line of lines) {
    const total = totals.get(line.currency) ?? {
      currency: line.currency,
      itemCount: 0,
      subtotalMinor: 0,
      taxMinor: 0,
      totalMinor: 0,
    }
    total.itemCount += 1
    total.subtotalMinor += line.priceMinor
    total.totalMinor = total.subtotalMinor + total.taxMinor
    totals.set(line.currency, total)
  }
  return [...totals.values()].sort((a, b) => a.currency.localeCompare(b.currency)).reverse()
}
