// Inputs of the creators' earnings procedures and the staff finance screen.
import { z } from 'zod'

export const EARNINGS_PAGE_SIZE = 25

export const earningsEntriesInput = z.object({
  page: z.number().int().min(1, 'Pages start at 1').max(10_000, 'No such page').default(1),
})

export const setPayoutsPausedInput = z.object({ paused: z.boolean() })

export const statementMonth = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'A month looks like 2026-11')
