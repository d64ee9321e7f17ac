// The seller named on invoices and credit notes (SELLER_* in the environment). Set once at start-up by the server
// and the worker, like the rest of the environment; every invoice snapshots it when issued, so a later change of
// address never rewrites an issued document. Tests and tools that never configure it get the demo seller.
import type { DocumentParty } from '../../db/types.ts'

export interface SellerDetails {
  name: string
  address: string
  companyNumber?: string
  vatNumber?: string
}

const DEMO_SELLER: SellerDetails = {
  name: 'SkillForge Ltd',
  address: '1 Example Street, London EC1A 1AA, United Kingdom',
}

let seller: SellerDetails = DEMO_SELLER

export function configureSeller(details: SellerDetails): void {
  seller = { ...details }
}

/** Back to the demo seller (tests that configured one, in their clean-up). */
export function resetSeller(): void {
  seller = DEMO_SELLER
}

export function sellerFromEnv(env: {
  SELLER_NAME: string
  SELLER_ADDRESS: string
  SELLER_COMPANY_NUMBER?: string
  SELLER_VAT_NUMBER?: string
}): SellerDetails {
  return {
    name: env.SELLER_NAME,
    address: env.SELLER_ADDRESS,
    companyNumber: env.SELLER_COMPANY_NUMBER,
    vatNumber: env.SELLER_VAT_NUMBER,
  }
}

export function sellerParty(): DocumentParty {
  return {
    name: seller.name,
    address: seller.address,
    companyNumber: seller.companyNumber ?? null,
    vatNumber: seller.vatNumber ?? null,
  }
}
