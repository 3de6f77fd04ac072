import { updateProfileFields } from '#app/domain/profiles/profiles.server.ts'
import { setContactAlert } from '#app/domain/profiles/sections.server.ts'
import { confirmStillCorrect } from '#app/domain/reviews/reviews.server.ts'
import { intervalLabel } from '#app/domain/reviews/schedule.ts'
import type { Unlisted } from '#app/domain/profiles/vocabularies.ts'
import type { Done } from './intents.ts'

// The Medical Information screen's reminder and alert intents: the review banner, the settings card, a contact's alerts.

export async function saveCareSettings(
	userId: string,
	profileId: number,
	settings: { reviewIntervalMonths: number | Unlisted; helpingAlerts: boolean },
): Promise<Done> {
	const saved = await updateProfileFields(userId, profileId, settings)
	const alerts = saved.helpingAlerts ? 'Responders can alert you and your chosen contacts.' : 'Responders cannot send alerts.'
	return {
		toast: { description: `Saved: we will ask you to confirm ${intervalLabel(saved.reviewIntervalMonths)}. ${alerts}` },
		profile: profileId,
		hash: 'care',
	}
}

export async function confirmReview(userId: string, profileId: number): Promise<Done> {
	await confirmStillCorrect(userId, profileId)
	return {
		toast: { title: 'Confirmed', description: 'Thank you: responders now see that this information was confirmed today.' },
		profile: profileId,
	}
}

export async function setContactAlertAction(
	userId: string,
	profileId: number,
	change: { id?: number; alertOptIn: boolean },
): Promise<Done> {
	const contact = await setContactAlert(userId, change.id ?? 0, change.alertOptIn)
	return {
		toast: {
			description: contact.alertOptIn
				? `${contact.name} will be alerted when a responder is helping.`
				: `${contact.name} will not be alerted.`,
		},
		profile: profileId,
		hash: 'contacts',
	}
}
