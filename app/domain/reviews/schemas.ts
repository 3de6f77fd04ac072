import { z } from 'zod'
import { checkbox } from '#app/domain/profiles/schemas.ts'
import { REVIEW_INTERVALS } from './schedule.ts'

export const REVIEW_INTERVAL_MESSAGE = 'Choose how often to confirm this profile'

/** A profile's reminder and alert settings (client-safe: the Medical Information form validates with it too). */
export const CareSettingsSchema = z.object({
	reviewIntervalMonths: z.coerce
		.number({ error: REVIEW_INTERVAL_MESSAGE })
		.refine((v) => (REVIEW_INTERVALS as readonly number[]).includes(v), REVIEW_INTERVAL_MESSAGE),
	helpingAlerts: checkbox,
})
