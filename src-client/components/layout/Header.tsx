import { Link } from '@tanstack/react-router'
import { lazy, useState } from 'react'
import { useBrand } from '#client/lib/brand.ts'
import { useSession, useSignOut } from '#client/lib/session.ts'
import { type SchoolSite, useSite } from '#client/lib/site.ts'
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
  // On a school's own domain the site is the school's (decision 0143): its home is its page, and the header offers its
  // courses, not the marketplace's catalogue, services, plans or pages about SkillForge.
  const site = useSite()

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
          {...(site ? { to: '/s/$slug', params: { slug: site.slug } } : { to: '/' })}
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
          {site ? <SchoolSiteLinks slug={site.slug} /> : <MarketplaceLinks />}
        </nav>
        <div className={css({ ml: 'auto', display: 'flex', alignItems: 'center', gap: '2' })}>
          {/* Premium is the marketplace's plan: not shown on a school's own site (decision 0150). */}
          {user && !site ? <PremiumBadge /> : null}
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
              site={site}
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

/** The marketplace's header links: the Browse menu (categories) and the main links. */
function MarketplaceLinks() {
  return (
    <>
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
    </>
  )
}

/** A school's own site's header links (decision 0143): its courses, on its page. */
function SchoolSiteLinks({ slug, onNavigate }: { slug: string; onNavigate?: () => void }) {
  return (
    <Link
      onClick={onNavigate}
      to="/s/$slug"
      params={{ slug }}
      hash="school-courses"
      activeOptions={{ includeHash: false }}
      className={navLink}
    >
      Courses
    </Link>
  )
}

/**
 * The mobile menu's links: the Browse categories and the main links (a school's site: its courses), and account or
 * log-in actions.
 */
function MobileNav({
  site,
  user,
  onNavigate,
  onSignOut,
  signingOut,
}: {
  site: SchoolSite | null
  user: boolean
  onNavigate: () => void
  onSignOut: () => void
  signingOut: boolean
}) {
  return (
    <nav aria-label="Mobile" className={css({ display: 'flex', flexDir: 'column', gap: '1' })}>
      {site ? (
        <SchoolSiteLinks slug={site.slug} onNavigate={onNavigate} />
      ) : (
        <MobileMarketplaceLinks onNavigate={onNavigate} />
      )}
      <AccountActions user={user} onNavigate={onNavigate} onSignOut={onSignOut} signingOut={signingOut} />
    </nav>
  )
}

function MobileMarketplaceLinks({ onNavigate }: { onNavigate: () => void }) {
  return (
    <>
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
    </>
  )
}

function AccountActions({
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
  return user ? (
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
  )
}
