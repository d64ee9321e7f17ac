// Runs the local fake Stripe for development: `node --import tsx scripts/fake-stripe.ts`, then start the app
// with the printed variables. Its checkout page's Pay button sends the signed webhook to the app.
import { startFakeStripe } from '../tests/support/fake-stripe.ts'

const appUrl = process.env.PUBLIC_URL ?? 'http://localhost:3000'
const fake = await startFakeStripe({
  port: Number(process.env.FAKE_STRIPE_PORT ?? 12111),
  webhookUrl: `${appUrl}/api/stripe/webhook`,
})
console.log(`Fake Stripe on ${fake.url}; start the app with:
  STRIPE_SECRET_KEY=${fake.secretKey} STRIPE_WEBHOOK_SECRET=${fake.webhookSecret} STRIPE_API_URL=${fake.url}`)
