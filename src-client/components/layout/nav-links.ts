// The header's links, shared by the desktop bar and the mobile menu so both always agree.
export const browseLinks = [
  { label: 'All Courses', category: undefined },
  { label: 'Development', category: 'development' },
  { label: 'Business', category: 'business' },
  { label: 'Marketing', category: 'marketing' },
] as const

export const mainLinks = [
  { label: 'Services', to: '/services' },
  { label: 'Pricing', to: '/pricing' },
  { label: 'About Us', to: '/about' },
  { label: 'Contact', to: '/contact' },
] as const
