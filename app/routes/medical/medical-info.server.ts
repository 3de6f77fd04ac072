import { DomainError } from '#app/utils/errors.ts'
import type { SubmissionResult } from '@conform-to/react'
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
	listProfiles,
	savePersonalInfo,
	updateProfileFields,
} from '#app/domain/profiles/profiles.server.ts'
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
import { actionToast, redirectWithToast } from '#app/utils/toast.server.ts'
import type { ToastInput } from '#app/utils/toast.ts'
import { QR_MESSAGES } from '#app/domain/qr/messages.ts'
import { INTENTS, screenHref, type Intent } from './intents.ts'
import { pinAction } from '../auth/pin-action.server.ts'
import { PIN_INTENT } from '../auth/pin-intent.ts'
import { toProfileView } from '#app/domain/profiles/views.ts'
import { CREATE_PROFILE_FIRST } from '#app/domain/profiles/schemas.ts'
import type { RequestArgs } from '#app/middleware/user.server.ts'
import { CareSettingsSchema } from '#app/domain/reviews/schemas.ts'
import { dueReviews } from '#app/domain/reviews/reviews.server.ts'
import { confirmReview, saveCareSettings, setContactAlertAction } from './care.server.ts'

export async function medicalInfoLoader({ request, context }: RequestArgs) {
	const userId = await requireUserId({ request, context })
	const url = pageUrl(request)
	const profiles = await listProfiles(userId)
	const requested = Number(url.searchParams.get('profile'))
	const selectedId = profiles.find((p) => p.id === requested)?.id ?? profiles[0]?.id ?? null
	const [detail, reviewsDue] = await Promise.all([selectedId ? getProfileDetail(userId, selectedId) : null, dueReviews(userId)])
	return {
		reviewsDue,
		profiles,
		profile: detail ? toProfileView(detail) : null,
		dialog: url.searchParams.get('dialog'),
		edit: url.searchParams.get('edit'),
	}
}
export type MedicalInfoData = Awaited<ReturnType<typeof medicalInfoLoader>>

type Failure = { intent: string; id?: number | null; result: SubmissionResult<string[]> }

const optionalId = IdSchema.optional().catch(undefined)
/** One form's post: its intent, the profile and row it is about, and its own fields. */
const act = <I extends Intent>(intent: I) => z.object({ intent: z.literal(intent), profileId: optionalId, id: optionalId })

const MedicalActionSchema = z.discriminatedUnion('intent', [
	act(INTENTS.saveProfile).extend(PersonalInfoSchema.shape),
	act(INTENTS.addFamily).extend(FamilyMemberSchema.shape),
	act(INTENTS.deleteProfile),
	act(INTENTS.setScanning).extend(ScanningSchema.shape),
	act(INTENTS.updateQrCodes),
	act(INTENTS.uploadPicture),
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
	act(INTENTS.savePolicy).extend(InsurancePolicySchema.shape),
	act(INTENTS.deletePolicy),
	act(INTENTS.saveDnr).extend(DnrSchema.shape),
	act(INTENTS.clearDnr),
	act(INTENTS.uploadDocument),
	act(INTENTS.deleteDocument),
	act(INTENTS.saveNotes).extend(NotesSchema.shape),
	act(INTENTS.clearNotes),
	act(INTENTS.saveCareSettings).extend(CareSettingsSchema.shape),
	act(INTENTS.confirmReview),
	act(INTENTS.setContactAlert).extend(ContactAlertSchema.shape),
])
type MedicalAction = z.infer<typeof MedicalActionSchema>
type Of<I extends Intent> = Extract<MedicalAction, { intent: I }>
type Submission = { reply: (options?: { fieldErrors: Record<string, string[]> }) => SubmissionResult<string[]> }

/** What every intent's function is given: who asks, the form, and the ways to answer. */
export type Reply = {
	userId: string
	form: FormData
	submission: Submission
	success: (toast: ToastInput, profile?: number | null, hash?: string) => Promise<Response>
	fail: (failure: Failure, toast?: ToastInput, status?: number) => Promise<ReturnType<typeof data<Failure>>>
	/** A refused input (a file, a contact to alert without an e-mail), answered beside its field; the toast says what failed. */
	refused: (error: unknown, toast?: (message: string) => ToastInput, withValues?: boolean) => ReturnType<Reply['fail']>
	claimant: { userId: string; address: string | null }
}

/** Intents that need no profile yet; every other one asks for the profile to exist first. */
const WITHOUT_PROFILE: readonly string[] = [INTENTS.saveProfile, INTENTS.addFamily]

export async function medicalInfoAction(request: Request, context: Readonly<RouterContextProvider>) {
	const userId = await requireUserId({ request, context })
	const base = pageUrl(request).pathname
	const read = await readForm(request, uploadLimit('document'))
	if (!read.ok) {
		const headers = await actionToast(request, context, { type: 'error', title: 'Upload Failed', description: read.message })
		const failure: Failure = { intent: 'upload', id: null, result: { status: 'error', error: { '': [read.message] } } }
		return data(failure, { status: read.status, headers })
	}
	const form = read.formData
	const intent = String(form.get('intent') ?? '')
	// The dashboard's PIN card: a wrong PIN keeps the screen, with the message beside the field.
	if (intent === PIN_INTENT) return pinAction(request, context, form)
	const rowId = optionalId.parse(form.get('id') ?? undefined) ?? null
	const fail: Reply['fail'] = async (failure, toast, status = 400) => {
		const headers = toast ? await actionToast(request, context, { type: 'error', ...toast }) : undefined
		return data(failure, { status, headers })
	}
	const formError = (message: string): Failure => ({ intent, id: rowId, result: { status: 'error', error: { '': [message] } } })
	if (!Object.values<string>(INTENTS).includes(intent)) return fail(formError('Unknown action'))
	if (!WITHOUT_PROFILE.includes(intent) && !optionalId.parse(form.get('profileId') || undefined))
		return fail(formError(CREATE_PROFILE_FIRST), { title: 'Create Profile First', description: CREATE_PROFILE_FIRST })

	const submission = parseWithZod(form, { schema: MedicalActionSchema })
	if (submission.status !== 'success') return fail({ intent, id: rowId, result: submission.reply() })
	const action = submission.value
	const reply: Reply = {
		userId,
		form,
		submission,
		claimant: { userId, address: getClientIp(request, context) },
		success: (toast, profile = action.profileId ?? null, hash) =>
			redirectWithToast(screenHref(base, { profile }, hash), { type: 'success', ...toast }),
		fail,
		refused: (error, toast, withValues = false) => {
			if (!(error instanceof DomainError) || !error.field) throw error
			const fieldErrors = { [error.field]: [error.message] }
			return fail(
				{ intent, id: rowId, result: withValues ? submission.reply({ fieldErrors }) : { status: 'error', error: fieldErrors } },
				toast?.(error.message),
			)
		},
	}
	try {
		return await perform(action, reply)
	} catch (error) {
		if (error instanceof DomainError && error.status === 404) throw data(error.message, { status: 404 })
		throw error
	}
}

function perform(action: MedicalAction, reply: Reply) {
	switch (action.intent) {
		case INTENTS.saveProfile:
			return saveProfile(action, reply)
		case INTENTS.addFamily:
			return addFamily(action, reply)
		case INTENTS.deleteProfile:
			return removeProfile(profileOf(action), reply)
		case INTENTS.setScanning:
			return setScanning(profileOf(action), action.isScannable, reply)
		case INTENTS.updateQrCodes:
			return updateQrCodes(profileOf(action), reply)
		case INTENTS.uploadPicture:
			return changePicture(profileOf(action), 'upload', reply)
		case INTENTS.removePicture:
			return changePicture(profileOf(action), 'remove', reply)
		case INTENTS.saveNotes:
			return saveNotes(profileOf(action), action.additionalNotes ?? null, reply)
		case INTENTS.clearNotes:
			return saveNotes(profileOf(action), null, reply)
		case INTENTS.savePolicy:
			return savePolicyRow(action, reply)
		case INTENTS.saveDnr:
			return saveDnrStatus(action, reply)
		case INTENTS.clearDnr:
			return clearDnrStatus(profileOf(action), reply)
		case INTENTS.uploadDocument:
			return uploadDocument(profileOf(action), reply)
		case INTENTS.deleteDocument:
			return removeDocument(action, reply)
		case INTENTS.addContact:
			return addSectionRow('contacts', profileOf(action), fields(action), 'Emergency contact added successfully', reply)
		case INTENTS.addAllergy:
			return addSectionRow('allergies', profileOf(action), fields(action), 'Allergy added successfully', reply)
		case INTENTS.addMedication:
			return addSectionRow('medications', profileOf(action), fields(action), 'Medication added successfully', reply)
		case INTENTS.addCondition:
			return addSectionRow('conditions', profileOf(action), fields(action), 'Medical condition added successfully', reply)
		case INTENTS.updateMedication:
			return updateSectionRow('medications', action, fields(action), 'Medication updated successfully', reply)
		case INTENTS.updateCondition:
			return updateSectionRow('conditions', action, fields(action), 'Medical condition updated successfully', reply)
		case INTENTS.deleteContact:
			return deleteSectionRow('contacts', action, 'Emergency contact deleted successfully', reply)
		case INTENTS.deleteAllergy:
			return deleteSectionRow('allergies', action, 'Allergy deleted successfully', reply)
		case INTENTS.deleteMedication:
			return deleteSectionRow('medications', action, 'Medication deleted successfully', reply)
		case INTENTS.deleteCondition:
			return deleteSectionRow('conditions', action, 'Medical condition deleted successfully', reply)
		case INTENTS.deletePolicy:
			return deleteSectionRow('policies', action, 'Insurance policy deleted successfully', reply)
		case INTENTS.saveCareSettings:
			return saveCareSettings(profileOf(action), fields(action), reply)
		case INTENTS.confirmReview:
			return confirmReview(profileOf(action), reply)
		case INTENTS.setContactAlert:
			return setContactAlertAction(profileOf(action), action, reply)
	}
}

/** The profile every intent but the first two is about; medicalInfoAction has checked that there is one. */
function profileOf(action: { profileId?: number }) {
	if (!action.profileId) throw new DomainError(404, 'Profile not found')
	return action.profileId
}

/** A form's own fields, without the intent and the ids every form carries. */
function fields<T extends { intent: string; profileId?: number; id?: number }>(action: T) {
	const { intent: _intent, profileId: _profileId, id: _id, ...values } = action
	return values
}

async function saveProfile(action: Of<typeof INTENTS.saveProfile>, { userId, success, refused }: Reply) {
	let saved
	try {
		saved = await savePersonalInfo(userId, fields(action), action.profileId ?? null)
	} catch (error) {
		return refused(error, undefined, true)
	}
	const { created, profile } = saved
	return success({ description: created ? 'Medical profile created successfully' : 'Medical profile updated successfully' }, profile.id)
}

async function addFamily(action: Of<typeof INTENTS.addFamily>, { claimant, submission, fail, success }: Reply) {
	const { pin, ...member } = fields(action)
	let claimed
	try {
		claimed = await claimCode(claimant, pin, { newProfile: member })
	} catch (error) {
		if (!(error instanceof DomainError)) throw error
		return fail(
			{ intent: action.intent, result: submission.reply({ fieldErrors: { [error.field ?? 'pin']: [error.message] } }) },
			{ title: 'Error', description: error.message },
			error.status,
		)
	}
	return success(
		{ title: 'Profile Created', description: `${member.fullName} has been created and QR code activated successfully.` },
		claimed.medicalProfileId,
	)
}

async function removeProfile(profileId: number, { userId, fail, success }: Reply) {
	let unlinked
	try {
		unlinked = await deleteProfile(userId, profileId)
	} catch (error) {
		if (error instanceof DomainError && error.status === 400) {
			return fail(
				{ intent: INTENTS.deleteProfile, result: { status: 'error', error: { '': [error.message] } } },
				{ title: 'Cannot Delete', description: error.message },
			)
		}
		throw error
	}
	return success({ title: 'Profile Deleted', description: `Profile has been deleted successfully.${QR_MESSAGES.unlinked(unlinked)}` }, null)
}

async function setScanning(profileId: number, isScannable: boolean, { userId, success }: Reply) {
	await updateProfileFields(userId, profileId, { isScannable })
	return success({
		description: isScannable
			? 'Scanning is on: responders can see this profile.'
			: 'Scanning is off: this profile is private from QR scans.',
	})
}

async function updateQrCodes(profileId: number, { userId, success }: Reply) {
	return success({ description: QR_MESSAGES.refreshed(await refreshProfileCodes(userId, profileId)) })
}

async function changePicture(profileId: number, change: 'upload' | 'remove', { userId, form, refused, success }: Reply) {
	if (change === 'remove') await removePicture(userId, profileId)
	else {
		try {
			await uploadPicture(userId, profileId, form.get('picture'))
		} catch (error) {
			return refused(error, (message) => ({ title: 'Upload Failed', description: message }))
		}
	}
	return success({ description: change === 'upload' ? 'Profile picture uploaded and saved successfully' : 'Profile picture removed' })
}

async function saveNotes(profileId: number, notes: string | null, { userId, success }: Reply) {
	await updateProfileFields(userId, profileId, { additionalNotes: notes })
	return success({ description: notes ? 'Medical notes saved successfully' : 'Medical notes cleared' }, profileId, 'notes')
}

async function savePolicyRow(action: Of<typeof INTENTS.savePolicy>, { userId, form, refused, success }: Reply) {
	const profileId = profileOf(action)
	try {
		await savePolicy(userId, profileId, action.id ?? null, fields(action), form.get('cardFrontPhoto'))
	} catch (error) {
		return refused(error, undefined, true)
	}
	return success(
		{ description: action.id ? 'Insurance policy updated successfully' : 'Insurance policy added successfully' },
		profileId,
		'insurance',
	)
}

async function saveDnrStatus(action: Of<typeof INTENTS.saveDnr>, { userId, form, refused, success }: Reply) {
	const profileId = profileOf(action)
	try {
		await saveDnr(userId, profileId, fields(action), form.get('document'))
	} catch (error) {
		// A refused document must not reset the dialog: the reply brings back the status, date and place entered.
		const toast = (message: string) =>
			message === DNR_DOCUMENT_REQUIRED
				? { title: 'Document Required', description: message }
				: { title: 'Upload Failed', description: 'Failed to upload document. Please try again.' }
		return refused(error, toast, true)
	}
	return success({ description: 'DNR status saved successfully' }, profileId, 'dnr')
}

async function clearDnrStatus(profileId: number, { userId, success }: Reply) {
	await clearDnr(userId, profileId)
	return success({ description: 'DNR status cleared' }, profileId, 'dnr')
}

async function uploadDocument(profileId: number, { userId, form, refused, success }: Reply) {
	try {
		await addDocument(userId, profileId, form.get('document'))
	} catch (error) {
		return refused(error, (message) => ({ title: 'Upload Failed', description: message }))
	}
	return success({ description: 'Medical document uploaded successfully' }, profileId, 'documents')
}

async function removeDocument(action: Of<typeof INTENTS.deleteDocument>, { userId, fail, success }: Reply) {
	if (!action.id) return fail({ intent: action.intent, result: { status: 'error', error: { '': ['Document not found'] } } })
	await deleteDocument(userId, action.id)
	return success({ description: 'Document deleted successfully' }, profileOf(action), 'documents')
}

async function addSectionRow<S extends Section>(
	section: S,
	profileId: number,
	values: Parameters<typeof addRow<S>>[3],
	done: string,
	{ userId, success, refused }: Reply,
) {
	try {
		await addRow(userId, section, profileId, values)
	} catch (error) {
		return refused(error, undefined, true)
	}
	return success({ description: done }, profileId, section)
}

async function updateSectionRow<S extends Section>(
	section: S,
	action: { id?: number; profileId?: number },
	values: Parameters<typeof updateRow<S>>[3],
	done: string,
	{ userId, success, refused }: Reply,
) {
	try {
		await updateRow(userId, section, action.id ?? 0, values)
	} catch (error) {
		return refused(error, undefined, true)
	}
	return success({ description: done }, profileOf(action), section)
}

async function deleteSectionRow(section: Section, action: { id?: number; profileId?: number }, done: string, { userId, success }: Reply) {
	if (!action.id) throw new DomainError(404, 'Not found')
	await deleteRow(userId, section, action.id)
	return success({ description: done }, profileOf(action), section)
}
