/** Every form on the Medical Information screen posts one of these as `intent`. */
export const INTENTS = {
	saveProfile: 'save-profile',
	addFamily: 'add-family',
	deleteProfile: 'delete-profile',
	setScanning: 'set-scanning',
	updateQrCodes: 'update-qr-codes',
	uploadPicture: 'upload-picture',
	removePicture: 'remove-picture',
	addContact: 'add-contact',
	deleteContact: 'delete-contact',
	addAllergy: 'add-allergy',
	deleteAllergy: 'delete-allergy',
	addMedication: 'add-medication',
	updateMedication: 'update-medication',
	deleteMedication: 'delete-medication',
	addCondition: 'add-condition',
	updateCondition: 'update-condition',
	deleteCondition: 'delete-condition',
	savePolicy: 'save-policy',
	deletePolicy: 'delete-policy',
	saveDnr: 'save-dnr',
	clearDnr: 'clear-dnr',
	uploadDocument: 'upload-document',
	deleteDocument: 'delete-document',
	saveNotes: 'save-notes',
	clearNotes: 'clear-notes',
	saveCareSettings: 'save-care-settings',
	confirmReview: 'confirm-review',
	setContactAlert: 'set-contact-alert',
	inviteCaregiver: 'invite-caregiver',
	revokeCaregiver: 'revoke-caregiver',
	leaveProfile: 'leave-profile',
} as const
export type Intent = (typeof INTENTS)[keyof typeof INTENTS]

/**
 * What a form's work answers: its success toast, the profile (when another) and section the screen goes back to, and
 * for a deleted row or a cleared section, which one (`section:id`, `section`), so focus goes where it was.
 */
export type Done = { toast: { title?: string; description: string }; profile?: number | null; hash?: string; deleted?: string }

/**
 * URL state of the screen, so dialogs and inline edits work as plain links without JavaScript: `delete` asks before a
 * row (`section:id`) is deleted or a section (`dnr`, `notes`) cleared, `deleted` names the one that just was.
 */
export type ScreenState = {
	profile?: number | null
	dialog?: string | null
	edit?: string | null
	delete?: string | null
	deleted?: string | null
}

export function screenHref(base: string, state: ScreenState, hash?: string) {
	const params = new URLSearchParams()
	if (state.profile) params.set('profile', String(state.profile))
	if (state.dialog) params.set('dialog', state.dialog)
	if (state.edit) params.set('edit', state.edit)
	if (state.delete) params.set('delete', state.delete)
	if (state.deleted) params.set('deleted', state.deleted)
	const query = params.toString()
	return `${base}${query ? `?${query}` : ''}${hash ? `#${hash}` : ''}`
}
