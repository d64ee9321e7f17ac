// The admin area's frame: sidebar (only the screens the role may use) and a header with the name and Logout.
import { useQuery } from '@tanstack/react-query'
import { Link, Outlet } from '@tanstack/react-router'
import { useState } from 'react'
import { MainAround } from '#client/components/layout/MainLandmark.tsx'
import { useSignOut } from '#client/lib/session.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { whilePending } from '#client/lib/while-pending.ts'
import { hasRole } from '#shared/roles.ts'
import { css, cx } from '#styled-system/css'
import { navLink as shopNavLink } from '../layout/header-styles.ts'
import { badge } from '../ui/badge.ts'
import { button } from '../ui/button.ts'
import { Drawer } from '../ui/Drawer.tsx'
import { adminNav } from './nav.ts'
import type { StaffMe } from './use-staff.ts'

// The shop header's link, as a block with the active page tinted.
const navLink = cx(shopNavLink, css({ display: 'block', '&[data-status=active]': { bg: 'brand.50' } }))

export function AdminLayout({ me }: { me: StaffMe }) {
  const logout = useSignOut('admin')
  const [drawerOpen, setDrawerOpen] = useState(false)

  return (
    <div className={css({ display: 'flex', minH: '100vh', bg: 'canvas' })}>
      <aside
        aria-label="Admin navigation"
        className={css({
          w: '60',
          flexShrink: 0,
          bg: 'surface',
          borderRightWidth: '1px',
          borderColor: 'line',
          p: '4',
          display: { base: 'none', md: 'block' },
        })}
      >
        <Link to="/admin" className={css({ display: 'block', fontWeight: 'bold', fontSize: 'lg', mb: '6', px: '3' })}>
          SkillForge Admin
        </Link>
        <AdminNavList me={me} />
      </aside>
      <div className={css({ flex: 1, minW: 0, display: 'flex', flexDir: 'column' })}>
        <header
          className={css({
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'space-between',
            gap: '4',
            h: '16',
            px: { base: '3', md: '6' },
            bg: 'surface',
            borderBottomWidth: '1px',
            borderColor: 'line',
          })}
        >
          {/* Below 768 px the sidebar is a drawer behind a menu button. */}
          <Drawer
            open={drawerOpen}
            onOpenChange={setDrawerOpen}
            title="SkillForge Admin"
            openLabel="Open admin menu"
            closeLabel="Close admin menu"
            side="left"
            triggerClassName={css({ display: { base: 'inline-flex', md: 'none' } })}
          >
            <AdminNavList me={me} label="Admin navigation (menu)" onNavigate={() => setDrawerOpen(false)} />
          </Drawer>
          <div className={css({ ml: 'auto', display: 'flex', alignItems: 'center', gap: '4' })}>
            <span className={css({ fontSize: 'sm' })}>
              <span data-testid="admin-name" className={css({ fontWeight: 'semibold' })}>
                {me.name}
              </span>{' '}
              <span className={css({ color: 'fg.muted' })}>({me.role === 'super_admin' ? 'owner' : me.role})</span>
            </span>
            <button
              type="button"
              className={button({ variant: 'outline', size: 'sm' })}
              {...whilePending(logout.isPending, 'onClick', () => logout.mutate())}
            >
              Logout
            </button>
          </div>
        </header>
        <MainAround id="admin-main" className={css({ flex: 1, p: { base: '4', md: '8' } })}>
          <Outlet />
        </MainAround>
      </div>
    </div>
  )
}

/** How often the menu asks how many chats wait, so staff on any admin page see a new one. */
const WAITING_POLL_MS = 15_000

/** "2 waiting" beside Live chat while members wait for someone to take their chat; nothing otherwise. */
function WaitingChats() {
  const trpc = useTRPC()
  const waiting = useQuery({ ...trpc.admin.liveChat.waiting.queryOptions(), refetchInterval: WAITING_POLL_MS })
  const count = waiting.data?.count ?? 0
  if (count === 0) return null
  return (
    <span data-testid="chats-waiting" className={css({ ml: '2' })}>
      <span className={badge({ tone: 'red' })}>{count} waiting</span>
    </span>
  )
}

function AdminNavList({ me, label, onNavigate }: { me: StaffMe; label?: string; onNavigate?: () => void }) {
  return (
    <nav aria-label={label}>
      <ul className={css({ display: 'flex', flexDir: 'column', gap: '1' })}>
        {adminNav
          .filter((item) => hasRole(me.role, item.minRole))
          .map((item) => (
            <li key={item.to}>
              <Link
                to={item.to}
                className={navLink}
                activeOptions={{ exact: item.to === '/admin' }}
                onClick={onNavigate}
              >
                {item.label}
                {item.to === '/admin/chat' ? <WaitingChats /> : null}
              </Link>
            </li>
          ))}
      </ul>
    </nav>
  )
}
