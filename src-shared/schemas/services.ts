import { z } from 'zod'

export const serviceIdSchema = z.string().trim().min(1).max(120)
