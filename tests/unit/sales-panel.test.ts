// The admin dashboard's "Last 30 days" panel counts its orders in English: one order is "1 order", not "1 orders".
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { SalesPanel } from '../../src-client/components/admin/SalesPanel.tsx'

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/\s+/g, ' ')
    .trim()

const panel = (ordersPlaced: number, orders: number) =>
  text(
    renderToStaticMarkup(
      createElement(SalesPanel, {
        sales: {
          from: '2026-11-02',
          to: '2026-12-01',
          ordersPlaced,
          series: [
            {
              currency: 'USD',
              revenueMinor: 1999 * orders,
              orders,
              points: [{ day: '2026-12-01', orders, revenueMinor: 1999 * orders }],
            },
          ],
        },
      }),
    ),
  )

describe('SalesPanel', () => {
  it('says "1 order placed" and "from 1 paid order" for a single order', () => {
    const shown = panel(1, 1)
    expect(shown).toContain('1 order placed')
    expect(shown).toContain('from 1 paid order')
    expect(shown).not.toMatch(/\b1 (paid )?orders\b/)
  })
  it('keeps the plural for several orders', () => {
    const shown = panel(3, 2)
    expect(shown).toContain('3 orders placed')
    expect(shown).toContain('from 2 paid orders')
  })
})
