// A form of the e-mail verification page (resend a link, confirm a sign-up's password): before the page's script has
// arrived (or without it) the browser posts it to the page, which the server renders again with the answer
// (src-server/http/native-forms.ts); once the script runs, `onSubmit` sends it instead.
import type { FormEvent, ReactNode } from 'react'
import { css } from '#styled-system/css'

export function VerifyPageForm({
  onSubmit,
  children,
}: {
  onSubmit: (event: FormEvent<HTMLFormElement>) => void
  children: ReactNode
}) {
  return (
    <form
      method="post"
      action="/verify-email"
      onSubmit={onSubmit}
      className={css({ display: 'flex', flexDir: 'column', gap: '3' })}
    >
      {children}
    </form>
  )
}
