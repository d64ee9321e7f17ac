// Inputs of the privacy procedures (issue 28): staff run a person's export by the person's account id.
import { z } from 'zod'

export const exportForPersonInput = z.object({ userId: z.uuid('Choose a person') })
