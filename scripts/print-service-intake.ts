// Prints what the seed gives each service: its intake form's fields and each package's revisions and processing
// days (the due date's business days). Reads the seed data itself, no database needed:
//   npx tsx scripts/print-service-intake.ts
import { intakeForms } from '../db/seed/data/intake-forms.ts'
import { services } from '../db/seed/data/services.ts'
import { processingDays } from '../db/seed/index.ts'
import type { IntakeField } from '../src-shared/schemas/service-brief.ts'

const describe = (field: IntakeField): string => {
  const flag = field.required ? ' (required)' : ''
  if (field.kind === 'people') {
    const inner = field.fields.map(describe).join('; ')
    return `${field.label} [people, ${field.minItems ?? 0}-${field.maxItems ?? 20}]${flag}: ${inner}`
  }
  if (field.kind === 'select') return `${field.label} [select: ${field.options.join(' | ')}]${flag}`
  return `${field.label} [${field.kind}]${flag}`
}

for (const service of services) {
  const form = intakeForms[service.id]
  console.log(`\n${service.title} (${service.id})`)
  console.log(`  intake form: ${form ? form.fields.length : 0} fields`)
  for (const field of form?.fields ?? []) console.log(`    - ${describe(field)}`)
  for (const pkg of service.packages) {
    console.log(
      `  package ${pkg.name}: ${pkg.revisions} revision(s), due ${processingDays(pkg.processingTime)} business days after the brief`,
    )
  }
}
