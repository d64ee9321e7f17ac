// The seller named on invoices and credit notes: the demo seller until start-up configures SELLER_* (orders/seller.ts).
// Each test loads the module afresh, as a process starts with it.
import { beforeEach, describe, expect, it, vi } from 'vitest'

const load = () => import('../../src-server/orders/seller.ts')

beforeEach(() => {
  vi.resetModules()
})

describe('the seller on documents', () => {
  it('is the demo seller when nothing is configured', async () => {
    const { sellerParty } = await load()
    expect(sellerParty()).toEqual({
      name: 'SkillForge Ltd',
      address: '1 Example Street, London EC1A 1AA, United Kingdom',
      companyNumber: null,
      vatNumber: null,
    })
  })

  it('is the one configured from SELLER_*, with its company and VAT numbers', async () => {
    const { configureSeller, sellerFromEnv, sellerParty } = await load()
    configureSeller(
      sellerFromEnv({
        SELLER_NAME: 'Acme Learning Ltd',
        SELLER_ADDRESS: '2 High Street, Leeds',
        SELLER_COMPANY_NUMBER: '01234567',
        SELLER_VAT_NUMBER: 'GB999999973',
      }),
    )
    expect(sellerParty()).toEqual({
      name: 'Acme Learning Ltd',
      address: '2 High Street, Leeds',
      companyNumber: '01234567',
      vatNumber: 'GB999999973',
    })
  })

  it('without SELLER_COMPANY_NUMBER or SELLER_VAT_NUMBER names neither', async () => {
    const { configureSeller, sellerFromEnv, sellerParty } = await load()
    const env = { SELLER_NAME: 'Solo Trader', SELLER_ADDRESS: '3 Low Road, York' }
    expect(sellerFromEnv(env)).toEqual({
      name: 'Solo Trader',
      address: '3 Low Road, York',
      companyNumber: undefined,
      vatNumber: undefined,
    })
    configureSeller(sellerFromEnv(env))
    expect(sellerParty()).toEqual({
      name: 'Solo Trader',
      address: '3 Low Road, York',
      companyNumber: null,
      vatNumber: null,
    })
  })

  it('keeps its own copy: changing the details given afterwards changes nothing', async () => {
    const { configureSeller, sellerParty } = await load()
    const details = { name: 'Copy Ltd', address: '4 Side Street, Bath' }
    configureSeller(details)
    details.name = 'Changed Ltd'
    expect(sellerParty()).toMatchObject({ name: 'Copy Ltd' })
  })
})
