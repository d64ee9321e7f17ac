// Staff's notes about a customer on the customer page (decision 0161): every staff role reads them, editors and up
// write them, a note is deleted by its author or an admin. The person receives them in their data export (as "Staff").
import { hasRole, type Role } from '../../src-shared/roles.ts'
import { addNote, deleteNote, noteById, notesAbout } from '../contact/customer-notes.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { accountForStaffAction } from '../users/contact.ts'

export const CUSTOMER_NOTE_MESSAGES = {
  gone: 'This note is no longer there: it was deleted.',
  notYours: 'A note is deleted by the staff member who wrote it, or by an admin.',
} as const

interface StaffMember {
  id: string
  role: Role
}

/** The customer's notes, newest first, as the page shows them. */
export async function customerNotes(db: DB, customerId: string) {
  return (await notesAbout(db, customerId)).map((note) => ({ ...note, createdAt: note.createdAt.toISOString() }))
}

export async function addCustomerNote(db: DB, staff: StaffMember, input: { customerId: string; body: string }) {
  const customer = await accountForStaffAction(db, input.customerId)
  await addNote(db, { userId: customer.id, authorId: staff.id, body: input.body })
  return { notes: await customerNotes(db, customer.id) }
}

export async function deleteCustomerNote(db: DB, staff: StaffMember, noteId: string) {
  const note = await noteById(db, noteId)
  if (!note) throw new DomainError('not_found', CUSTOMER_NOTE_MESSAGES.gone)
  if (note.author_id !== staff.id && !hasRole(staff.role, 'admin')) {
    throw new DomainError('forbidden', CUSTOMER_NOTE_MESSAGES.notYours)
  }
  await deleteNote(db, note.id)
  return { notes: await customerNotes(db, note.user_id) }
}
