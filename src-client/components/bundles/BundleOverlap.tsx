// The warning a buyer sees before paying for a bundle that includes courses they already hold or also have in the
// cart on their own (the server names them: cart/lines.ts).
import { css } from '#styled-system/css'

const note = css({
  mt: '2',
  p: '3',
  fontSize: 'sm',
  bg: 'surface',
  borderWidth: '1px',
  borderLeftWidth: '4px',
  borderColor: 'warning',
  borderRadius: 'control',
})

export function BundleOverlap({ overlap }: { overlap: { held: string[]; inCart: string[] } | null | undefined }) {
  if (!overlap || (overlap.held.length === 0 && overlap.inCart.length === 0)) return null
  return (
    <div role="note" data-testid="bundle-overlap" className={note}>
      {overlap.held.length > 0 ? (
        <p>You already own {overlap.held.join(', ')}: the bundle price stays the same.</p>
      ) : null}
      {overlap.inCart.length > 0 ? (
        <p>Also in your cart on its own: {overlap.inCart.join(', ')}. Remove it to avoid paying twice.</p>
      ) : null}
    </div>
  )
}
