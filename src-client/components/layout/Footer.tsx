import { Link } from '@tanstack/react-router'
import { useBrand } from '#client/lib/brand.ts'
import { useSite } from '#client/lib/site.ts'
import { css } from '#styled-system/css'
import { containerClass } from '../ui/layout.tsx'

const columns = [
  {
    title: 'Product',
    links: [
      { label: 'Courses', to: '/courses' },
      { label: 'Services', to: '/services' },
      { label: 'Pricing', to: '/pricing' },
      { label: 'Features', to: '/features' },
      { label: 'Examples', to: '/examples' },
    ],
  },
  {
    title: 'Company',
    links: [
      { label: 'About Us', to: '/about' },
      { label: 'Careers', to: '/careers' },
      { label: 'Blog', to: '/blog' },
      { label: 'Resources', to: '/resources' },
      { label: 'Contact', to: '/contact' },
    ],
  },
  {
    title: 'Legal',
    links: [
      { label: 'Privacy Policy', to: '/privacy' },
      { label: 'Terms of Service', to: '/terms' },
      { label: 'Security', to: '/security' },
      { label: 'Cookie Policy', to: '/cookies' },
    ],
  },
] as const

const legalLinks = columns[2].links

export function Footer() {
  const year = new Date().getFullYear()
  const brand = useBrand()
  const site = useSite()
  // A white-labelled school's pages (decision 0063) and a school's own domain (decision 0143): its name (SkillForge's
  // without a brand) and the legal pages its learners agree to, none of the marketplace's pages or words.
  if (brand || site) {
    return (
      <footer
        data-surface="dark"
        className={css({ bg: 'ink', color: 'gray.300', mt: 'auto', _print: { display: 'none' } })}
        style={brand ? { borderTop: `4px solid ${brand.brandColor}` } : undefined}
      >
        <div
          className={`${containerClass} ${css({ py: '5', fontSize: 'sm', display: 'flex', flexWrap: 'wrap', gap: '4', justifyContent: 'space-between' })}`}
        >
          <p>
            © {year} {brand?.displayName ?? 'SkillForge'}. All rights reserved.
          </p>
          {site ? (
            <nav aria-label="Legal">
              <ul className={css({ display: 'flex', flexWrap: 'wrap', gap: '4' })}>
                {legalLinks.map((link) => (
                  <li key={link.to}>
                    <Link to={link.to} className={css({ _hover: { color: 'white' } })}>
                      {link.label}
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
          ) : null}
        </div>
      </footer>
    )
  }
  return (
    <footer
      data-surface="dark"
      className={css({ bg: 'ink', color: 'gray.300', mt: 'auto', _print: { display: 'none' } })}
    >
      <div
        className={`${containerClass} ${css({ py: '12', display: 'grid', gap: '8', gridTemplateColumns: { base: '1fr', sm: 'repeat(2, 1fr)', md: '2fr 1fr 1fr 1fr' } })}`}
      >
        <div>
          <p className={css({ color: 'white', fontWeight: 'bold', fontSize: 'lg' })}>SkillForge</p>
          <p className={css({ mt: '2', fontSize: 'sm', maxW: 'xs' })}>
            Courses from working experts, business services that get companies started, and plans for creators who want
            to grow.
          </p>
        </div>
        {columns.map((column) => (
          <nav key={column.title} aria-label={column.title}>
            <h2 className={css({ color: 'white', fontWeight: 'semibold', fontSize: 'sm', mb: '3' })}>{column.title}</h2>
            <ul className={css({ display: 'grid', gap: '2', fontSize: 'sm' })}>
              {column.links.map((link) => (
                <li key={link.to}>
                  <Link to={link.to} className={css({ _hover: { color: 'white' } })}>
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <div className={css({ borderTopWidth: '1px', borderColor: 'gray.700' })}>
        <p className={`${containerClass} ${css({ py: '5', fontSize: 'sm' })}`}>
          © {year} SkillForge. All rights reserved.
        </p>
      </div>
    </footer>
  )
}
