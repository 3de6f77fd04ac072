import { DomainError, UNKNOWN_ACTION, unhandledIntent } from '#app/utils/errors.ts'
import { formValues } from '#app/utils/form-values.ts'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, type RouterContextProvider } from 'react-router'
import { z } from 'zod'
import {
	AllergySchema,
	ConditionSchema,
	ContactAlertSchema,
	ContactSchema,
	DNR_DOCUMENT_REQUIRED,
	DnrSchema,
	FamilyMemberSchema,
	IdSchema,
	idSchema,
	InsurancePolicySchema,
	MedicationSchema,
	NotesSchema,
	PersonalInfoSchema,
	ScanningSchema,
} from '#app/domain/profiles/schemas.ts'
import {
	deleteProfile,
	refreshProfileCodes,
	getProfileDetail,
	savePersonalInfo,
	updateProfileFields,
} from '#app/domain/profiles/profiles.server.ts'
import { CaregiverInviteSchema } from '#app/domain/profiles/caregiver-schemas.ts'
import { endAction, inviteAction, screenProfiles, sharingOf } from './caregivers.server.ts'
import { claimCode } from '#app/domain/claims/claims.server.ts'
import { addRow, deleteRow, updateRow, type Section } from '#app/domain/profiles/sections.server.ts'
import {
	clearDnr,
	deleteDocument,
	removePicture,
	saveDnr,
	savePolicy,
	addDocument,
	uploadPicture,
} from '#app/domain/profiles/files.server.ts'
import { uploadLimit } from '#app/domain/uploads/uploads.server.ts'
import { readForm } from '#app/utils/form-body.server.ts'
import { requireUserId } from '#app/middleware/permissions.server.ts'
import { getClientIp } from '#app/utils/request.server.ts'
import { pageUrl } from '#app/utils/http.ts'
import { replyError, type ReplyErrorOptions } from '#app/utils/reply-error.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { QR_MESSAGES } from '#app/domain/qr/messages.ts'
import { INTENTS, screenHref, type Done, type Intent } from './intents.ts'
import { pinAction } from '../../features/pin-claim/pin-action.server.ts'
import { PIN_INTENT } from '#app/domain/claims/pin-intent.ts'
import { toProfileView } from '#app/domain/profiles/views.ts'
import { CREATE_PROFILE_FIRST } from '#app/domain/profiles/schemas.ts'
import type { RequestArgs } from '#app/utils/request.server.ts'
import { CareSettingsSchema } from '#app/domain/reviews/schemas.ts'
import { dueReviews } from '#app/domain/reviews/reviews.server.ts'
import { confirmReview, saveCareSettings, setContactAlertAction } from './care.server.ts'

export async function medicalInfoLoader({ request, context }: RequestArgs) {
	const userId = await requireUserId({ request, context })
	const url = pageUrl(request)
	const { profiles, selected, refused } = await screenProfiles(userId, Number(url.searchParams.get('profile')))
	const [detail, reviewsDue, sharing] = await Promise.all([
		selected ? getProfileDetail(userId, selected.id, 'read') : null,
		dueReviews(userId),
		sharingOf(userId, selected),
	])
	return {
		reviewsDue,
		profiles,
		profile: detail ? toProfileView(detail) : null,
		/** Who the person is to the profile shown: its owner, or a caregiver (editor, viewer) it was shared with. */
		role: selected?.role ?? 'owner',
		/** The profile asked for in the address is not (or no longer) shared with the person. */
		refused,
		...sharing,
		dialog: url.searchParams.get('dialog'),
		edit: url.searchParams.get('edit'),
		deleting: url.searchParams.get('delete'),
		deleted: url.searchParams.get('deleted'),
	}
}
export type MedicalInfoData = Awaited<ReturnType<typeof medicalInfoLoader>>

const optionalId = IdSchema.optional().catch(undefined)
/** A form about a profile, which must be saved first: without one the screen asks for the profile before anything else. */
const act = <I extends Intent>(intent: I) =>
	z.object({ intent: z.literal(intent), profileId: idSchema(CREATE_PROFILE_FIRST), id: optionalId })
/** The two forms that make a profile (the person's own, on its first save, and a family member's) need none yet. */
const makes = <I extends Intent>(intent: I) => z.object({ intent: z.literal(intent), profileId: optionalId, id: optionalId })
/** A file field: the domain checks what came (nothing, too large, not its type) and refuses it beside the field. */
const file = z.unknown().optional()

/** Every form of the screen: its intent, the profile and row it is about, and its own fields. */
const MedicalActionSchema = z.discriminatedUnion(
	'intent',
	[
		// The dashboard's PIN card: its own action reads its form (pin-action.server.ts).
		z.object({ intent: z.literal(PIN_INTENT) }),
		makes(INTENTS.saveProfile).extend(PersonalInfoSchema.shape),
		makes(INTENTS.addFamily).extend(FamilyMemberSchema.shape),
		act(INTENTS.deleteProfile),
		act(INTENTS.setScanning).extend(ScanningSchema.shape),
		act(INTENTS.updateQrCodes),
		act(INTENTS.uploadPicture).extend({ picture: file }),
		act(INTENTS.removePicture),
		act(INTENTS.addContact).extend(ContactSchema.shape),
		act(INTENTS.deleteContact),
		act(INTENTS.addAllergy).extend(AllergySchema.shape),
		act(INTENTS.deleteAllergy),
		act(INTENTS.addMedication).extend(MedicationSchema.shape),
		act(INTENTS.updateMedication).extend(MedicationSchema.shape),
		act(INTENTS.deleteMedication),
		act(INTENTS.addCondition).extend(ConditionSchema.shape),
		act(INTENTS.updateCondition).extend(ConditionSchema.shape),
		act(INTENTS.deleteCondition),
		act(INTENTS.savePolicy).extend(InsurancePolicySchema.shape).extend({ cardFrontPhoto: file }),
		act(INTENTS.deletePolicy),
		act(INTENTS.saveDnr).extend(DnrSchema.shape).extend({ document: file }),
		act(INTENTS.clearDnr),
		act(INTENTS.uploadDocument).extend({ document: file }),
		act(INTENTS.deleteDocument),
		act(INTENTS.saveNotes).extend(NotesSchema.shape),
		act(INTENTS.clearNotes),
		act(INTENTS.saveCareSettings).extend(CareSettingsSchema.shape),
		act(INTENTS.confirmReview),
		act(INTENTS.setContactAlert).extend(ContactAlertSchema.shape),
		act(INTENTS.inviteCaregiver).extend(CaregiverInviteSchema.shape),
		act(INTENTS.revokeCaregiver),
		act(INTENTS.leaveProfile),
	],
	{ error: UNKNOWN_ACTION },
)
type MedicalAction = z.infer<typeof MedicalActionSchema>
type Of<I extends MedicalAction['intent']> = Extract<MedicalAction, { intent: I }>
type Args = { request: Request; context: Readonly<RouterContextProvider> }
type Claimant = { userId: string; address: string | null }

/**
 * Every form of the screen posts here. A refused form comes back with what was typed, the message beside its field
 * (or on the form) and, for some, a toast; the component shows it in the form that sent it (its intent and row).
 */
export async function medicalInfoAction(request: Request, context: Readonly<RouterContextProvider>) {
	const userId = await requireUserId({ request, context })
	const args: Args = { request, context }
	const read = await readForm(request, uploadLimit('document'))
	if (!read.ok) {
		// Nothing of the form could be read (a file over the limit): the refusal is the upload's, on no form of its own.
		const nothing = parseWithZod(new FormData(), { schema: z.object({}) })
		const refusal = new DomainError(read.status, read.message)
		return replyError(args, nothing, refusal, { toast: 'Upload Failed', extra: { intent: 'upload', id: null } })
	}
	const submission = parseWithZod(read.formData, { schema: MedicalActionSchema })
	if (submission.status !== 'success') {
		// The form that sent it, as typed: its refusal comes back into that form only.
		const { intent, id } = submission.payload
		const typed = { intent: typeof intent === 'string' ? intent.slice(0, 50) : '', id: optionalId.parse(id) ?? null }
		if (submission.error?.intent) return replyError(args, submission, new DomainError(400, UNKNOWN_ACTION), { extra: typed })
		if (submission.error?.profileId)
			return replyError(args, submission, new DomainError(400, CREATE_PROFILE_FIRST), { toast: 'Create Profile First', extra: typed })
		return data({ ...typed, result: submission.reply() }, { status: 400 })
	}
	const action = submission.value
	// A wrong PIN keeps the screen, with the message beside the field.
	if (action.intent === PIN_INTENT) return pinAction({ request, context }, read.formData)
	const extra = { intent: action.intent, id: action.id ?? null }
	try {
		const done = await perform(action, { userId, address: getClientIp(request, context) })
		const profile = done.profile !== undefined ? done.profile : (action.profileId ?? null)
		return await redirectWithToast(screenHref(pageUrl(request).pathname, { profile, deleted: done.deleted }, done.hash), {
			type: 'success',
			...done.toast,
		})
	} catch (error) {
		return replyError(args, submission, error, { ...refusedAs(action, error), extra })
	}
}

/** How a refused form is told, beyond the message beside its field: the toast some forms show. */
function refusedAs(action: Exclude<MedicalAction, { intent: typeof PIN_INTENT }>, error: unknown): ReplyErrorOptions<never> {
	switch (action.intent) {
		case INTENTS.addFamily:
			return { toast: 'Error', field: 'pin' }
		case INTENTS.deleteProfile:
			return { toast: 'Cannot Delete' }
		case INTENTS.uploadPicture:
		case INTENTS.uploadDocument:
			return { toast: 'Upload Failed' }
		case INTENTS.saveDnr:
			// A refused document must not reset the dialog: the reply brings back the status, date and place entered.
			return error instanceof DomainError && error.message === DNR_DOCUMENT_REQUIRED
				? { toast: 'Document Required' }
				: { toast: { title: 'Upload Failed', description: 'Failed to upload document. Please try again.' } }
		case INTENTS.setContactAlert:
			return { toast: 'Error' }
		default:
			return {}
	}
}

function perform(action: Exclude<MedicalAction, { intent: typeof PIN_INTENT }>, claimant: Claimant): Promise<Done> {
	const { userId } = claimant
	switch (action.intent) {
		case INTENTS.saveProfile:
			return saveProfile(userId, action)
		case INTENTS.addFamily:
			return addFamily(claimant, action)
		case INTENTS.deleteProfile:
			return removeProfile(userId, action.profileId)
		case INTENTS.setScanning:
			return setScanning(userId, action.profileId, action.isScannable)
		case INTENTS.updateQrCodes:
			return updateQrCodes(userId, action.profileId)
		case INTENTS.uploadPicture:
			return changePicture(userId, action.profileId, { upload: action.picture })
		case INTENTS.removePicture:
			return changePicture(userId, action.profileId, 'remove')
		case INTENTS.saveNotes:
			return saveNotes(userId, action.profileId, action.additionalNotes ?? null)
		case INTENTS.clearNotes:
			return clearNotes(userId, action.profileId)
		case INTENTS.savePolicy:
			return savePolicyRow(userId, action)
		case INTENTS.saveDnr:
			return saveDnrStatus(userId, action)
		case INTENTS.clearDnr:
			return clearDnrStatus(userId, action.profileId)
		case INTENTS.uploadDocument:
			return uploadDocument(userId, action.profileId, action.document)
		case INTENTS.deleteDocument:
			return removeDocument(userId, action)
		case INTENTS.addContact:
			return addSectionRow(userId, 'contacts', action.profileId, fields(action), 'Emergency contact added successfully')
		case INTENTS.addAllergy:
			return addSectionRow(userId, 'allergies', action.profileId, fields(action), 'Allergy added successfully')
		case INTENTS.addMedication:
			return addSectionRow(userId, 'medications', action.profileId, fields(action), 'Medication added successfully')
		case INTENTS.addCondition:
			return addSectionRow(userId, 'conditions', action.profileId, fields(action), 'Medical condition added successfully')
		case INTENTS.updateMedication:
			return updateSectionRow(userId, 'medications', action, fields(action), 'Medication updated successfully')
		case INTENTS.updateCondition:
			return updateSectionRow(userId, 'conditions', action, fields(action), 'Medical condition updated successfully')
		case INTENTS.deleteContact:
			return deleteSectionRow(userId, 'contacts', action, 'Emergency contact deleted successfully')
		case INTENTS.deleteAllergy:
			return deleteSectionRow(userId, 'allergies', action, 'Allergy deleted successfully')
		case INTENTS.deleteMedication:
			return deleteSectionRow(userId, 'medications', action, 'Medication deleted successfully')
		case INTENTS.deleteCondition:
			return deleteSectionRow(userId, 'conditions', action, 'Medical condition deleted successfully')
		case INTENTS.deletePolicy:
			return deleteSectionRow(userId, 'policies', action, 'Insurance policy deleted successfully')
		case INTENTS.saveCareSettings:
			return saveCareSettings(userId, action.profileId, fields(action))
		case INTENTS.confirmReview:
			return confirmReview(userId, action.profileId)
		case INTENTS.setContactAlert:
			return setContactAlertAction(userId, action.profileId, action)
		case INTENTS.inviteCaregiver:
			return inviteAction(userId, action.profileId, fields(action))
		case INTENTS.revokeCaregiver:
		case INTENTS.leaveProfile:
			return endAction(userId, action.profileId, action.id)
		default:
			return unhandledIntent(action)
	}
}

/** A form's own fields, without the intent and the ids every form carries. */
const fields = <T extends object>(action: T) => formValues(action, ['intent', 'profileId', 'id'])

async function saveProfile(userId: string, action: Of<typeof INTENTS.saveProfile>): Promise<Done> {
	const { created, profile } = await savePersonalInfo(userId, fields(action), action.profileId ?? null)
	return {
		toast: { description: created ? 'Medical profile created successfully' : 'Medical profile updated successfully' },
		profile: profile.id,
	}
}

async function addFamily(claimant: Claimant, action: Of<typeof INTENTS.addFamily>): Promise<Done> {
	const { pin, ...member } = fields(action)
	const claimed = await claimCode(claimant, pin, { newProfile: member })
	return {
		toast: { title: 'Profile Created', description: `${member.fullName} has been created and QR code activated successfully.` },
		profile: claimed.medicalProfileId,
	}
}

async function removeProfile(userId: string, profileId: number): Promise<Done> {
	const unlinked = await deleteProfile(userId, profileId)
	return {
		toast: { title: 'Profile Deleted', description: `Profile has been deleted successfully.${QR_MESSAGES.unlinked(unlinked)}` },
		profile: null,
		deleted: 'profile',
	}
}

async function setScanning(userId: string, profileId: number, isScannable: boolean): Promise<Done> {
	await updateProfileFields(userId, profileId, { isScannable })
	return {
		toast: {
			description: isScannable
				? 'Scanning is on: responders can see this profile.'
				: 'Scanning is off: this profile is private from QR scans.',
		},
	}
}

async function updateQrCodes(userId: string, profileId: number): Promise<Done> {
	return { toast: { description: QR_MESSAGES.refreshed(await refreshProfileCodes(userId, profileId)) } }
}

async function changePicture(userId: string, profileId: number, change: { upload: unknown } | 'remove'): Promise<Done> {
	if (change !== 'remove') {
		await uploadPicture(userId, profileId, change.upload)
		return { toast: { description: 'Profile picture uploaded and saved successfully' } }
	}
	await removePicture(userId, profileId)
	// Focus then goes to the section's heading, as after any removal.
	return { toast: { description: 'Profile picture removed' }, profile: profileId, deleted: 'personal' }
}

async function saveNotes(userId: string, profileId: number, notes: string | null): Promise<Done> {
	await updateProfileFields(userId, profileId, { additionalNotes: notes })
	return { toast: { description: notes ? 'Medical notes saved successfully' : 'Medical notes cleared' }, profile: profileId, hash: 'notes' }
}

async function clearNotes(userId: string, profileId: number): Promise<Done> {
	await updateProfileFields(userId, profileId, { additionalNotes: null })
	return { toast: { description: 'Medical notes cleared' }, profile: profileId, deleted: 'notes' }
}

async function savePolicyRow(userId: string, action: Of<typeof INTENTS.savePolicy>): Promise<Done> {
	const { cardFrontPhoto, ...policy } = fields(action)
	await savePolicy(userId, action.profileId, action.id ?? null, policy, cardFrontPhoto)
	return {
		toast: { description: action.id ? 'Insurance policy updated successfully' : 'Insurance policy added successfully' },
		profile: action.profileId,
		hash: 'insurance',
	}
}

async function saveDnrStatus(userId: string, action: Of<typeof INTENTS.saveDnr>): Promise<Done> {
	const { document, ...dnr } = fields(action)
	await saveDnr(userId, action.profileId, dnr, document)
	return { toast: { description: 'DNR status saved successfully' }, profile: action.profileId, hash: 'dnr' }
}

async function clearDnrStatus(userId: string, profileId: number): Promise<Done> {
	await clearDnr(userId, profileId)
	return { toast: { description: 'DNR status cleared' }, profile: profileId, deleted: 'dnr' }
}

async function uploadDocument(userId: string, profileId: number, document: unknown): Promise<Done> {
	await addDocument(userId, profileId, document)
	return { toast: { description: 'Medical document uploaded successfully' }, profile: profileId, hash: 'documents' }
}

async function removeDocument(userId: string, action: Of<typeof INTENTS.deleteDocument>): Promise<Done> {
	if (!action.id) throw new DomainError(400, 'Document not found')
	await deleteDocument(userId, action.id)
	return { toast: { description: 'Document deleted successfully' }, profile: action.profileId, deleted: `documents:${action.id}` }
}

async function addSectionRow<S extends Section>(
	userId: string,
	section: S,
	profileId: number,
	values: Parameters<typeof addRow<S>>[3],
	done: string,
): Promise<Done> {
	await addRow(userId, section, profileId, values)
	return { toast: { description: done }, profile: profileId, hash: section }
}

async function updateSectionRow<S extends Section>(
	userId: string,
	section: S,
	action: { id?: number; profileId: number },
	values: Parameters<typeof updateRow<S>>[3],
	done: string,
): Promise<Done> {
	await updateRow(userId, section, action.id ?? 0, values)
	return { toast: { description: done }, profile: action.profileId, hash: section }
}

async function deleteSectionRow(userId: string, section: Section, action: { id?: number; profileId: number }, done: string): Promise<Done> {
	if (!action.id) throw new DomainError(404, 'Not found')
	await deleteRow(userId, section, action.id)
	// Named in the URL rather than by a fragment: the screen comes back with focus where the row was, and a fragment
	// would stop the browser's autofocus that does it without JavaScript. The policies are listed under "insurance".
	const list = section === 'policies' ? 'insurance' : section
	return { toast: { description: done }, profile: action.profileId, deleted: `${list}:${action.id}` }
}
