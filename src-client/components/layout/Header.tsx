import { Link } from '@tanstack/react-router'
import { lazy, useState } from 'react'
import { useBrand } from '#client/lib/brand.ts'
import { useSession, useSignOut } from '#client/lib/session.ts'
import { css } from '#styled-system/css'
import { UserMenu } from '../auth/UserMenu.tsx'
import { HeaderCartLink, PremiumBadge } from '../cart/HeaderCart.tsx'
import { button } from '../ui/button.ts'
import { DeferredMenu } from '../ui/DeferredMenu.tsx'
import { Drawer } from '../ui/Drawer.tsx'
import { Icon } from '../ui/icons.tsx'
import { containerClass } from '../ui/layout.tsx'
import { browseTrigger, navLink } from './header-styles.ts'
import { browseLinks, mainLinks } from './nav-links.ts'

const loadBrowseMenu = () => import('./browse-menu-view.tsx')
const BrowseMenu = lazy(loadBrowseMenu)

export function Header() {
  const [mobileOpen, setMobileOpen] = useState(false)
  const closeMobile = () => setMobileOpen(false)
  const { user } = useSession()
  const signOut = useSignOut()
  const brand = useBrand()

  return (
    <header
      className={css({
        _print: { display: 'none' },
        position: 'sticky',
        top: 0,
        zIndex: 20,
        bg: 'surface/95',
        backdropFilter: 'blur(8px)',
        borderBottomWidth: '1px',
        borderColor: 'line',
      })}
    >
      <div className={`${containerClass} ${css({ display: 'flex', alignItems: 'center', gap: '4', h: '16' })}`}>
        <Link
          to="/"
          className={css({ display: 'flex', alignItems: 'center', gap: '2', fontWeight: 'bold', fontSize: 'lg' })}
        >
          {brand ? (
            <>
              {brand.logoUrl ? <img src={brand.logoUrl} alt="" width={28} height={28} /> : null}
              <span data-testid="brand-name" style={{ color: brand.brandColor }}>
                {brand.displayName}
              </span>
            </>
          ) : (
            <>
              <img src="/favicon.svg" alt="" width={28} height={28} />
              <span>SkillForge</span>
            </>
          )}
        </Link>

        <nav
          aria-label="Main"
          className={css({ display: { base: 'none', lg: 'flex' }, alignItems: 'center', gap: '1', ml: '4' })}
        >
          <DeferredMenu
            menu={BrowseMenu}
            menuProps={{}}
            load={loadBrowseMenu}
            standIn={(props) => (
              <button type="button" className={browseTrigger} {...props}>
                Browse <Icon name="chevronDown" size={16} />
              </button>
            )}
          />
          {mainLinks.map((item) => (
            <Link key={item.to} to={item.to} className={navLink}>
              {item.label}
            </Link>
          ))}
        </nav>

        <div className={css({ ml: 'auto', display: 'flex', alignItems: 'center', gap: '2' })}>
          {user ? <PremiumBadge /> : null}
          <HeaderCartLink />
          {user ? (
            <UserMenu user={user} />
          ) : user === null ? (
            <div className={css({ display: { base: 'none', lg: 'flex' }, gap: '2' })}>
              <Link to="/login" className={button({ variant: 'ghost', size: 'sm' })}>
                Log In
              </Link>
              <Link to="/signup" className={button({ size: 'sm' })}>
                Sign Up
              </Link>
            </div>
          ) : null}
          <Drawer
            open={mobileOpen}
            onOpenChange={setMobileOpen}
            title="Menu"
            openLabel="Open menu"
            closeLabel="Close menu"
            triggerClassName={css({ display: { base: 'inline-flex', lg: 'none' } })}
          >
            <MobileNav
              user={Boolean(user)}
              onNavigate={closeMobile}
              onSignOut={() => signOut.mutate()}
              signingOut={signOut.isPending}
            />
          </Drawer>
        </div>
      </div>
    </header>
  )
}

/** The mobile menu's links: the Browse categories, the main links, and account or log-in actions. */
function MobileNav({
  user,
  onNavigate,
  onSignOut,
  signingOut,
}: {
  user: boolean
  onNavigate: () => void
  onSignOut: () => void
  signingOut: boolean
}) {
  return (
    <nav aria-label="Mobile" className={css({ display: 'flex', flexDir: 'column', gap: '1' })}>
      <span
        className={css({
          px: '3',
          pt: '1',
          fontSize: 'xs',
          fontWeight: 'bold',
          color: 'fg.muted',
          textTransform: 'uppercase',
        })}
      >
        Browse
      </span>
      {browseLinks.map((item) => (
        <Link
          onClick={onNavigate}
          key={item.label}
          to="/courses"
          search={item.category ? { category: item.category } : {}}
          className={navLink}
        >
          {item.label}
        </Link>
      ))}
      {mainLinks.map((item) => (
        <Link onClick={onNavigate} key={item.to} to={item.to} className={navLink}>
          {item.label}
        </Link>
      ))}
      {user ? (
        <div className={css({ display: 'flex', gap: '2', pt: '2' })}>
          <Link onClick={onNavigate} to="/account" className={button({ variant: 'outline', size: 'sm' })}>
            My Account
          </Link>
          <button
            type="button"
            className={button({ variant: 'ghost', size: 'sm' })}
            disabled={signingOut}
            onClick={() => {
              onNavigate()
              onSignOut()
            }}
          >
            Sign Out
          </button>
        </div>
      ) : (
        <div className={css({ display: 'flex', gap: '2', pt: '2' })}>
          <Link onClick={onNavigate} to="/login" className={button({ variant: 'outline', size: 'sm' })}>
            Log In
          </Link>
          <Link onClick={onNavigate} to="/signup" className={button({ size: 'sm' })}>
            Sign Up
          </Link>
        </div>
      )}
    </nav>
  )
}
