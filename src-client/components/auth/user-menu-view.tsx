// The account menu (Ark UI Menu) behind the header's avatar, loaded on first use through UserMenu.
import { Menu } from '@ark-ui/react/menu'
import { Link } from '@tanstack/react-router'
import { useEffect, useRef } from 'react'
import { type SessionUser, useSignOut } from '#client/lib/session.ts'
import { css, cx } from '#styled-system/css'
import type { DeferredMenuProps } from '../ui/DeferredMenu.tsx'
import { menuContent, menuItem } from '../ui/menu-styles.ts'
import { AvatarTrigger, displayName } from './UserMenu.tsx'

export default function UserMenuView({ user, defaultOpen, focusTrigger }: { user: SessionUser } & DeferredMenuProps) {
  const signOut = useSignOut()
  const name = displayName(user)
  const trigger = useRef<HTMLButtonElement>(null)
  useEffect(() => {
    if (focusTrigger) trigger.current?.focus()
  }, [focusTrigger])
  return (
    <Menu.Root defaultOpen={defaultOpen} positioning={{ placement: 'bottom-end' }}>
      <Menu.Trigger ref={trigger} asChild>
        <AvatarTrigger user={user} />
      </Menu.Trigger>
      <Menu.Positioner>
        <Menu.Content className={cx(menuContent, css({ minW: '52' }))}>
          <div
            className={css({
              px: '3',
              py: '2',
              fontSize: 'sm',
              borderBottomWidth: '1px',
              borderColor: 'line',
              mb: '1',
            })}
          >
            <div className={css({ fontWeight: 'semibold' })}>{name}</div>
            <div className={css({ color: 'fg.muted', fontSize: 'xs' })}>{user.email}</div>
          </div>
          <Menu.Item value="account" asChild className={menuItem}>
            <Link to="/account">My Account</Link>
          </Menu.Item>
          {/* Every signed-in person: a course's learners find its sessions there, Premium members all of them. */}
          <Menu.Item value="live" asChild className={menuItem}>
            <Link to="/live">Live sessions</Link>
          </Menu.Item>
          {user.isCreator ? (
            <Menu.Item value="studio" asChild className={menuItem}>
              {/* A plain link: the studio's routes are their own part of the app. */}
              <a href="/studio">Studio</a>
            </Menu.Item>
          ) : null}
          <Menu.Item
            value="sign-out"
            className={menuItem}
            // Not `disabled` while signing out (that would skip it): reachable, marked, a second select ignored.
            aria-disabled={signOut.isPending || undefined}
            onSelect={() => {
              if (!signOut.isPending) signOut.mutate()
            }}
          >
            Sign Out
          </Menu.Item>
        </Menu.Content>
      </Menu.Positioner>
    </Menu.Root>
  )
}
