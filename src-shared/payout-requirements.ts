// What Stripe still needs from a creator before it can pay them, in words a creator knows. Stripe names each item by
// its API field ("individual.dob.day", "tos_acceptance.date", "person_1Abc.address.city"); several fields are one
// thing to give (a date of birth, an address), so the list says each once, in Stripe's order.

/** The first rule that matches a field names it; a field none matches is shown as its words. */
const RULES: readonly [RegExp, string][] = [
  [/^external_account/, 'A bank account to be paid into'],
  [/^tos_acceptance\./, 'Accepting Stripe’s terms of service'],
  [/^business_type$/, 'Whether you sell as an individual or a company'],
  [/^business_profile\.url$/, 'A website or profile page about your teaching'],
  [/^business_profile\.(mcc|product_description)$/, 'What you sell'],
  [/^business_profile\./, 'Your business profile'],
  [/^(individual|representative|person_\w+)\.dob\./, 'Date of birth'],
  [/^(individual|representative|person_\w+)\.address\./, 'Home address'],
  [/^(individual|representative|person_\w+)\.(first_name|last_name)$/, 'Legal name'],
  [/^(individual|representative|person_\w+)\.email$/, 'E-mail address'],
  [/^(individual|representative|person_\w+)\.phone$/, 'Phone number'],
  [/^(individual|representative|person_\w+)\.ssn_last_4$/, 'Last 4 digits of your Social Security number'],
  [/^(individual|representative|person_\w+)\.id_number$/, 'Government ID number'],
  [/^(individual|representative|person_\w+)\.verification\./, 'A photo of an identity document'],
  [/^company\.address\./, 'Company address'],
  [/^company\./, 'Company details'],
  [/^(representative|person_\w+)\./, 'Details of the company’s representative'],
]

/** Stripe's requirement fields as the things to give, each once. */
export function payoutRequirementLabels(fields: readonly string[]): string[] {
  const labels = fields.map(
    (field) => RULES.find(([pattern]) => pattern.test(field))?.[1] ?? field.replace(/[._]/g, ' ').trim(),
  )
  return [...new Set(labels)]
}
