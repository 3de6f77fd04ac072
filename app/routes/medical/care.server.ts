import { updateProfileFields } from '#app/domain/profiles/profiles.server.ts'
import { setContactAlert } from '#app/domain/profiles/sections.server.ts'
import { confirmStillCorrect } from '#app/domain/reviews/reviews.server.ts'
import { intervalLabel } from '#app/domain/reviews/schedule.ts'
import type { Unlisted } from '#app/domain/profiles/vocabularies.ts'
import type { Reply } from './medical-info.server.ts'

// The Medical Information screen's reminder and alert intents: the review banner, the settings card, a contact's alerts.

export async function saveCareSettings(
	profileId: number,
	settings: { reviewIntervalMonths: number | Unlisted; helpingAlerts: boolean },
	{ userId, success, refused }: Reply,
) {
	let saved
	try {
		saved = await updateProfileFields(userId, profileId, settings)
	} catch (error) {
		return refused(error, undefined, true)
	}
	const alerts = saved.helpingAlerts ? 'Responders can alert you and your chosen contacts.' : 'Responders cannot send alerts.'
	return success(
		{ description: `Saved: we will ask you to confirm ${intervalLabel(saved.reviewIntervalMonths)}. ${alerts}` },
		profileId,
		'care',
	)
}

export async function confirmReview(profileId: number, { userId, success }: Reply) {
	await confirmStillCorrect(userId, profileId)
	return success({ title: 'Confirmed', description: 'Thank you: responders now see that this information was confirmed today.' }, profileId)
}

export async function setContactAlertAction(
	profileId: number,
	change: { id?: number; alertOptIn: boolean },
	{ userId, refused, success }: Reply,
) {
	try {
		const contact = await setContactAlert(userId, change.id ?? 0, change.alertOptIn)
		return success(
			{
				description: contact.alertOptIn
					? `${contact.name} will be alerted when a responder is helping.`
					: `${contact.name} will not be alerted.`,
			},
			profileId,
			'contacts',
		)
	} catch (error) {
		return refused(error, (message) => ({ title: 'Error', description: message }))
	}
}
