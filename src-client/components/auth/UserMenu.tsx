// The signed-in header control: the avatar button opening My Account and Sign Out. The menu itself loads on
// first use (user-menu-view.tsx); the avatar shows at once.
import { type ButtonHTMLAttributes, forwardRef, lazy } from 'react'
import type { SessionUser } from '#client/lib/session.ts'
import { fullName } from '#shared/names.ts'
import { css } from '#styled-system/css'
import { DeferredMenu } from '../ui/DeferredMenu.tsx'
import { Avatar } from './Avatar.tsx'

const loadMenu = () => import('./user-menu-view.tsx')
const UserMenuView = lazy(loadMenu)

export const displayName = (user: SessionUser) => fullName(user.firstName, user.lastName) || user.email

/** The avatar button: the menu's trigger, and its stand-in until the menu is loaded. */
export const AvatarTrigger = forwardRef<
  HTMLButtonElement,
  { user: SessionUser } & ButtonHTMLAttributes<HTMLButtonElement>
>(function AvatarTrigger({ user, ...props }, ref) {
  const name = displayName(user)
  return (
    <button
      ref={ref}
      type="button"
      data-testid="user-menu"
      className={css({ display: 'inline-flex', borderRadius: 'full', cursor: 'pointer' })}
      {...props}
    >
      {/* The name as text, not aria-label: the visible initials are hidden, so nothing visible contradicts it. */}
      <span className={css({ srOnly: true })}>Account menu for {name}</span>
      <Avatar name={name} email={user.email} avatarUrl={user.avatarUrl} />
    </button>
  )
})

export function UserMenu({ user }: { user: SessionUser }) {
  return (
    <DeferredMenu
      menu={UserMenuView}
      menuProps={{ user }}
      load={loadMenu}
      standIn={(props) => <AvatarTrigger user={user} {...props} />}
    />
  )
}
