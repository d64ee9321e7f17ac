// The README is the operator's manual: every environment variable env.ts reads is in its table, and every Stripe
// event the webhook acts on is in the list of events to enable.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { HANDLED_STRIPE_EVENTS } from '../../src-server/flows/apply-stripe-event.ts'
import { envSchema } from '../../src-server/kernel/env.ts'

const readme = readFileSync('README.md', 'utf8')

function section(title: string): string {
  const start = readme.indexOf(`\n## ${title}\n`)
  expect(start, `README has a "## ${title}" section`).toBeGreaterThan(-1)
  const end = readme.indexOf('\n## ', start + 1)
  return readme.slice(start, end === -1 ? undefined : end)
}

describe('README for the operator', () => {
  it('has a table row for every variable env.ts reads, and none it does not', () => {
    const rows = section('Environment')
      .split('\n')
      .filter((line) => line.startsWith('| `'))
    const documented = new Set(
      rows.flatMap((row) => [...row.split('|')[1]!.matchAll(/`([A-Z0-9_]+)`/g)].map((m) => m[1]!)),
    )
    const read = Object.keys(envSchema.shape)
    expect(read.filter((name) => !documented.has(name))).toEqual([])
    // Variables only the tests and tools read are listed too, marked so.
    const extra = [...documented].filter((name) => !read.includes(name))
    for (const name of extra) {
      const row = rows.find((line) => line.includes(`\`${name}\``))!
      expect(row, `${name} is not read by env.ts: say who reads it`).toMatch(/tests only|scripts only/)
    }
  })

  it('lists every Stripe event the webhook handles', () => {
    const stripe = section('Real Stripe')
    expect(HANDLED_STRIPE_EVENTS.length).toBeGreaterThan(3)
    for (const event of HANDLED_STRIPE_EVENTS) expect(stripe).toContain(`\`${event}\``)
  })
})
