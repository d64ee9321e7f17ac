// The app's card surfaces, shared so the catalogue's cards, the buying cards and the pages' own cards look one way.
import { css, cx } from '#styled-system/css'

/** A raised card: a surface with the card's corners and shadow (a bundle, a testimonial, the buy box); padding and
 * layout are the card's own. */
export const raisedCard = css({ bg: 'surface', borderRadius: 'card', boxShadow: 'card' })

/** A raised card around a page's main content (a lesson, a quiz, a lesson's questions, the bundle manager). */
export const contentCard = cx(raisedCard, css({ p: { base: '4', md: '6' } }))

/** A flat card: a surface inside a thin border with the card's corners (a cart line, an account section, a document);
 * padding and layout are the card's own. */
export const borderedCard = css({ bg: 'surface', borderWidth: '1px', borderColor: 'line', borderRadius: 'card' })

/** A listing card (a course, a service): a raised surface whose image runs to its edges, content in a column. */
export const listingCard = cx(raisedCard, css({ overflow: 'hidden', display: 'flex', flexDir: 'column' }))

/**
 * A card to choose and buy (a plan, a service package): padded, with a border the popular one colours. Its border
 * colour (transparent) stays in each card beside the popular one's: Panda emits a utility where it first meets it,
 * and the popular colour must come after it to win.
 */
export const offerCard = cx(
  raisedCard,
  css({ p: '6', display: 'flex', flexDir: 'column', position: 'relative', borderWidth: '2px' }),
)
