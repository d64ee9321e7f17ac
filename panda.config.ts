import { defineConfig } from '@pandacss/dev'

export default defineConfig({
  preflight: true,
  include: ['./src-client/**/*.{ts,tsx}'],
  exclude: ['./src-client/routeTree.gen.ts'],
  outdir: 'styled-system',
  jsxFramework: 'react',
  // Styles are css() calls only: a JSX prop that happens to share a CSS property's name (a table's `columns`) is
  // not a style.
  jsxStyleProps: 'none',
  theme: {
    extend: {
      tokens: {
        colors: {
          brand: {
            50: { value: '#eef4ff' },
            100: { value: '#dbe6fe' },
            200: { value: '#bfd3fe' },
            500: { value: '#3b6cf6' },
            600: { value: '#2553e0' },
            700: { value: '#1d41b8' },
            900: { value: '#172a6b' },
          },
          ink: { value: '#0f172a' },
          muted: { value: '#475569' },
          line: { value: '#e2e8f0' },
          surface: { value: '#ffffff' },
          canvas: { value: '#f8fafc' },
          success: { value: '#15803d' },
          warning: { value: '#a16207' },
          danger: { value: '#b91c1c' },
          star: { value: '#f59e0b' },
        },
        fonts: {
          body: { value: "Inter, 'Segoe UI', system-ui, -apple-system, Roboto, 'Helvetica Neue', Arial, sans-serif" },
          heading: {
            value: "Inter, 'Segoe UI', system-ui, -apple-system, Roboto, 'Helvetica Neue', Arial, sans-serif",
          },
        },
        radii: { card: { value: '14px' }, control: { value: '8px' } },
        shadows: {
          card: { value: '0 1px 2px rgba(15,23,42,.06), 0 4px 16px rgba(15,23,42,.06)' },
          raised: { value: '0 10px 30px rgba(15,23,42,.14)' },
        },
        sizes: { content: { value: '1200px' } },
      },
      semanticTokens: {
        colors: {
          fg: { DEFAULT: { value: '{colors.ink}' }, muted: { value: '{colors.muted}' } },
          accent: { DEFAULT: { value: '{colors.brand.600}' }, hover: { value: '{colors.brand.700}' } },
        },
      },
    },
  },
  globalCss: {
    'html, body': { fontFamily: 'body', color: 'fg', bg: 'canvas', lineHeight: '1.55' },
    a: { color: 'inherit', textDecoration: 'none' },
    // The reset's placeholder grey is 3.9:1 on white; the muted text colour is 7.5:1.
    '::placeholder': { color: 'fg.muted' },
    // One focus ring with at least 3:1 contrast on every background (WCAG 2.4.13, 1.4.11): dark blue on the light
    // pages, white on the dark ones (a section marked data-surface="dark": the heroes, the carousel, the footer; a
    // white card inside one is marked data-surface="light").
    ':root': { '--focus-ring': 'token(colors.brand.700)' },
    '[data-surface="dark"]': { '--focus-ring': 'white' },
    '[data-surface="light"]': { '--focus-ring': 'token(colors.brand.700)' },
    ':focus-visible, [data-focus-visible]': { outline: '2px solid var(--focus-ring)', outlineOffset: '2px' },
    // Where "Skip to content" lands: the whole page needs no ring.
    'main:focus-visible': { outline: 'none' },
    // The page scrolls under the sticky header: keep a focused element (and a #main jump) out from under it.
    html: { scrollPaddingTop: '5rem' },
    // Reduced motion: no transitions, animations or smooth scrolling (the carousel never moves on its own).
    '@media (prefers-reduced-motion: reduce)': {
      '*, *::before, *::after': {
        animationDuration: '0.01ms !important',
        animationIterationCount: '1 !important',
        transitionDuration: '0.01ms !important',
        scrollBehavior: 'auto !important',
      },
    },
  },
})
