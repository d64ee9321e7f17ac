import { useQuery } from '@tanstack/react-query'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { css } from '#styled-system/css'
import { button } from '../ui/button.ts'

const PROVIDERS = [
  {
    name: 'google',
    label: 'Google',
    mark: [
      ['#4285F4', 'M23 12.3c0-.8-.1-1.6-.2-2.3H12v4.4h6.2a5.3 5.3 0 0 1-2.3 3.5v2.9h3.7c2.2-2 3.4-5 3.4-8.5Z'],
      [
        '#34A853',
        'M12 24c3.1 0 5.7-1 7.6-2.8l-3.7-2.9c-1 .7-2.3 1.1-3.9 1.1-3 0-5.5-2-6.4-4.7H1.8v3A11.5 11.5 0 0 0 12 24Z',
      ],
      ['#FBBC05', 'M5.6 14.7a6.9 6.9 0 0 1 0-4.4v-3H1.8a11.5 11.5 0 0 0 0 10.4l3.8-3Z'],
      ['#EA4335', 'M12 4.8c1.7 0 3.2.6 4.4 1.7l3.3-3.3A11.5 11.5 0 0 0 1.8 7.3l3.8 3c.9-2.8 3.4-5.5 6.4-5.5Z'],
    ],
  },
  {
    name: 'facebook',
    label: 'Facebook',
    mark: [
      [
        '#1877F2',
        'M24 12a12 12 0 1 0-13.9 11.9v-8.4h-3V12h3V9.4c0-3 1.8-4.7 4.5-4.7 1.3 0 2.7.2 2.7.2v3h-1.5c-1.5 0-2 .9-2 1.9V12h3.4l-.5 3.5h-2.9v8.4A12 12 0 0 0 24 12Z',
      ],
    ],
  },
] as const

/**
 * Google and Facebook sign-in, only for the providers the server is configured for (none: nothing at all, not
 * buttons that fail). Plain links: the server starts the OAuth flow (/auth/{provider}) and comes back to
 * /auth/callback, which then returns to `redirect`; `mode: 'admin'` signs in to the admin area.
 */
export function SocialButtons({ redirect = '/', mode }: { redirect?: string; mode?: 'admin' }) {
  const trpc = useTRPC()
  const providers = useQuery({ ...trpc.auth.providers.queryOptions(), staleTime: Number.POSITIVE_INFINITY })
  const shown = PROVIDERS.filter((provider) => providers.data?.oauth.includes(provider.name))
  if (shown.length === 0) return null
  const params = new URLSearchParams()
  if (redirect !== '/') params.set('redirect', redirect)
  if (mode) params.set('mode', mode)
  const query = params.size ? `?${params}` : ''
  return (
    <div className={css({ display: 'flex', flexDir: 'column', gap: '3' })}>
      <div
        className={css({
          display: 'flex',
          alignItems: 'center',
          gap: '3',
          color: 'fg.muted',
          fontSize: 'xs',
          textTransform: 'uppercase',
          _before: { content: '""', flex: 1, h: '1px', bg: 'line' },
          _after: { content: '""', flex: 1, h: '1px', bg: 'line' },
        })}
      >
        Or continue with
      </div>
      <div className={css({ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(8.5rem, 1fr))', gap: '3' })}>
        {shown.map(({ name, label, mark }) => (
          <a key={name} href={`/auth/${name}${query}`} className={button({ variant: 'outline' })}>
            <Mark paths={mark} /> {label}
          </a>
        ))}
      </div>
    </div>
  )
}

/** A provider's mark: its coloured paths in an 18px square, hidden from screen readers (the label names it). */
function Mark({ paths }: { paths: readonly (readonly [fill: string, d: string])[] }) {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true">
      {paths.map(([fill, d]) => (
        <path key={d} fill={fill} d={d} />
      ))}
    </svg>
  )
}
