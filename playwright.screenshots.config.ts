// `npm run screenshots`: the end-to-end set-up (built server, fresh database, fake Stripe) running only the screenshot
// walk of tests/screenshots, which writes every route at 390 px and 1280 px into screenshots/ (git-ignored).
import { defineConfig } from '@playwright/test'
import base from './playwright.config.ts'

export default defineConfig({ ...base, testDir: 'tests/screenshots', retries: 0, timeout: 60_000 })
