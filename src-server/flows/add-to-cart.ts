// Adding to the cart: a member with a live plan cannot add another (subscriptions/ knows), then the cart takes the
// item (cart/ checks the course is not already held and the item exists).
import type { CartItemInput } from '../../src-shared/schemas/cart.ts'
import { CART_MESSAGES } from '../../src-shared/schemas/cart.ts'
import { countCourseEvent } from '../analytics/counters.ts'
import { addCartItem } from '../cart/repository.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { liveSubscriptionOf } from '../subscriptions/repository.ts'

export async function addToCart(db: DB, userId: string, item: CartItemInput) {
  if (item.kind === 'plan' && (await liveSubscriptionOf(db, userId))) {
    throw new DomainError('conflict', CART_MESSAGES.hasPlan)
  }
  const added = await addCartItem(db, userId, item)
  // The course page's funnel (views → added to cart → bought): counted in memory, written in batches.
  if (item.kind === 'course') countCourseEvent(db, item.courseId, 'cart_adds')
  return added
}
