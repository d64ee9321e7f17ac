// The flags the system Chromium runs headless with here (STACK-NOTES): the end-to-end tests and `npm run lighthouse`.
export const HEADLESS_CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]
