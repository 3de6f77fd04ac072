import { z } from 'zod'
import { checkbox } from '#app/domain/profiles/schemas.ts'
import { Unlisted } from '#app/domain/profiles/vocabularies.ts'
import { REVIEW_INTERVALS } from './schedule.ts'

export const REVIEW_INTERVAL_MESSAGE = 'Choose how often to confirm this profile'

/**
 * A profile's reminder and alert settings (client-safe: the Medical Information form validates with it too). An
 * interval the form does not offer is one the profile already holds, sent back: kept if still so (see Unlisted).
 */
export const CareSettingsSchema = z.object({
	reviewIntervalMonths: z.coerce
		.number({ error: REVIEW_INTERVAL_MESSAGE })
		.int(REVIEW_INTERVAL_MESSAGE)
		.transform((v) => ((REVIEW_INTERVALS as readonly number[]).includes(v) ? v : new Unlisted(String(v), REVIEW_INTERVAL_MESSAGE))),
	helpingAlerts: checkbox,
})
