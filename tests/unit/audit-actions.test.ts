// The audit log says each action in words (/admin/audit); `audit.record` takes only actions with words, by type.
import { describe, expect, it } from 'vitest'
import { AUDIT_ACTION_LABELS, auditActionLabel } from '../../src-shared/audit-actions.ts'

describe('the audit log’s action labels', () => {
  it('names each action in a sentence of its own and falls back to the code for one no longer recorded', () => {
    expect(auditActionLabel('customer.viewed')).toBe('Looked up a customer')
    expect(auditActionLabel('service_order.requestRevision')).toBe('Asked for a service order’s revision')
    expect(auditActionLabel('widget.renamed')).toBe('widget.renamed')
    const labels = Object.values(AUDIT_ACTION_LABELS)
    expect(new Set(labels).size, 'two actions read the same').toBe(labels.length)
    for (const label of labels) expect(label).toMatch(/^[A-Z][^.]*[a-z]$/)
  })
})
