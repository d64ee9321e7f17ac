// The studio's Premium and offline switches on a course (owner only; the server checks the role).
import { z } from 'zod'
import { courseRef } from './studio.ts'

export const premiumInclusionInput = courseRef.extend({ included: z.boolean() })
export const offlineSettingInput = courseRef.extend({ allowed: z.boolean() })
