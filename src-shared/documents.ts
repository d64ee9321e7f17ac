// The lines that name a party on an invoice or credit note, in print order: the same on the page and in the PDF.
export interface PartyFields {
  name: string
  email?: string | null
  company?: string | null
  address?: string | null
  companyNumber?: string | null
  vatNumber?: string | null
}

export function partyLines(who: PartyFields): string[] {
  return [
    who.company,
    who.name,
    who.email,
    who.address,
    who.companyNumber ? `Company number: ${who.companyNumber}` : null,
    who.vatNumber ? `VAT number: ${who.vatNumber}` : null,
  ].filter((line): line is string => Boolean(line))
}
