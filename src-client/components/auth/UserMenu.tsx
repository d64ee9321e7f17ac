import { Menu } from '@ark-ui/react/menu'
import { Link } from '@tanstack/react-router'
import { css, cx } from '../../../styled-system/css'
import { type SessionUser, useSignOut } from '../../lib/session.ts'
import { menuContent, menuItem } from '../ui/menu-styles.ts'
import { Avatar } from './Avatar.tsx'

/** The signed-in header control: avatar button opening My Account and Sign Out. */
export function UserMenu({ user }: { user: SessionUser }) {
  const signOut = useSignOut()
  const name = `${user.firstName} ${user.lastName}`.trim() || user.email
  return (
    <Menu.Root positioning={{ placement: 'bottom-end' }}>
      <Menu.Trigger
        aria-label={`Account menu for ${name}`}
        data-testid="user-menu"
        className={css({ display: 'inline-flex', borderRadius: 'full', cursor: 'pointer' })}
      >
        <Avatar name={name} email={user.email} avatarUrl={user.avatarUrl} />
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
          <Menu.Item
            value="sign-out"
            className={menuItem}
            disabled={signOut.isPending}
            onSelect={() => signOut.mutate()}
          >
            Sign Out
          </Menu.Item>
        </Menu.Content>
      </Menu.Positioner>
    </Menu.Root>
  )
}
