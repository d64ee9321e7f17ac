// A mailed link's page before its script runs (or without JavaScript): one button posts the link's token to the page's
// bare address, in the body only, and the server renders the page again with the answer (http/native-forms.ts).
import { css } from '#styled-system/css'
import { button } from '../ui/button.ts'

export function PostLinkToken({ action, token, label }: { action: string; token: string; label: string }) {
  return (
    <form method="post" action={action} className={css({ display: 'flex', flexDir: 'column' })}>
      <input type="hidden" name="token" value={token} />
      <button type="submit" className={button({ size: 'lg' })}>
        {label}
      </button>
    </form>
  )
}
