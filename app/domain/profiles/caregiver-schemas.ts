import { z } from 'zod'
import { EMAIL_REQUIRED, EmailSchema } from '#app/domain/accounts/schemas.ts'
import { CAREGIVER_ROLES } from '#db/schema/values.ts'
import { CAREGIVER_MESSAGES, CAREGIVER_ROLE_LABELS, CAREGIVER_ROLE_NAMES, CLOSED_INVITATION, MAX_CAREGIVERS } from './caregiver-labels.ts'

export { CAREGIVER_MESSAGES, CAREGIVER_ROLE_LABELS, CAREGIVER_ROLE_NAMES, CLOSED_INVITATION, MAX_CAREGIVERS }

// Client-safe: the Caregivers form, the page action and the JSON endpoint share these.
export const CaregiverInviteSchema = z.object({
	email: z.string({ error: EMAIL_REQUIRED }).trim().min(1, EMAIL_REQUIRED).max(254, 'Please enter a valid email address').pipe(EmailSchema),
	role: z.enum(CAREGIVER_ROLES, { error: 'Please choose Editor or Viewer' }),
})
export type CaregiverInvite = z.output<typeof CaregiverInviteSchema>
