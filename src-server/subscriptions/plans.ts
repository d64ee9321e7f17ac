import type { DB } from '../kernel/db.ts'

/** The plans in display order, under the names the pricing page reads. */
export function listPlans(db: DB) {
  return db
    .selectFrom('plans')
    .select([
      'id',
      'name',
      'description',
      'monthly_price_minor as monthlyPriceMinor',
      'annual_price_minor as annualPriceMinor',
      'currency',
      'features',
      'is_popular as isPopular',
      'badge',
    ])
    .orderBy('position')
    .execute()
}

export function listComparisonFeatures(db: DB) {
  return db
    .selectFrom('plan_comparison_features')
    .select(['name', 'starter', 'professional', 'enterprise'])
    .orderBy('position')
    .execute()
}

/** One plan's name and prices, for a plan change. */
export function findPlan(db: DB, planId: string) {
  return db
    .selectFrom('plans')
    .select(['id', 'name', 'monthly_price_minor', 'annual_price_minor', 'currency'])
    .where('id', '=', planId)
    .executeTakeFirst()
}
