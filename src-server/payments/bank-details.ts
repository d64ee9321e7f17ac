// What a buyer sees for a bank transfer: the domestic routing of the order's currency, never the other one
// (a UK account has a sort code, a US account a routing number). Bank name, SWIFT code and account travel with both.
import type { Currency } from '../../src-shared/money.ts'
import type { BankAccount } from './config.ts'

interface CommonDetails {
  bankName: string
  accountName: string
  accountNumber: string
  swiftCode: string
}

export type BankTransferDetails =
  | (CommonDetails & { currency: 'GBP'; sortCode: string })
  | (CommonDetails & { currency: 'USD'; routingNumber: string })

export function bankDetailsFor(bank: BankAccount, currency: Currency): BankTransferDetails {
  const common = {
    bankName: bank.bankName,
    accountName: bank.accountName,
    accountNumber: bank.accountNumber,
    swiftCode: bank.swiftCode,
  }
  return currency === 'GBP'
    ? { ...common, currency, sortCode: bank.sortCode }
    : { ...common, currency, routingNumber: bank.routingNumber }
}
