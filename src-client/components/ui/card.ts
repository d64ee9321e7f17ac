// The storefront's card surfaces, shared so the catalogue's cards and the buying cards look one way.
import { css } from '#styled-system/css'

/** A listing card (a course, a service): a raised surface whose image runs to its edges, content in a column. */
export const listingCard = css({
  bg: 'surface',
  borderRadius: 'card',
  boxShadow: 'card',
  overflow: 'hidden',
  display: 'flex',
  flexDir: 'column',
})

/**
 * A card to choose and buy (a plan, a service package): padded, with a border the popular one colours. Its border
 * colour (transparent) stays in each card beside the popular one's: Panda emits a utility where it first meets it,
 * and the popular colour must come after it to win.
 */
export const offerCard = css({
  bg: 'surface',
  borderRadius: 'card',
  boxShadow: 'card',
  p: '6',
  display: 'flex',
  flexDir: 'column',
  position: 'relative',
  borderWidth: '2px',
})
