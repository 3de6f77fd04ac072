import { DomainError } from '#app/domain/errors.ts'
import type { SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, type RouterContextProvider } from 'react-router'
import type { z } from 'zod'
import {
	AllergySchema,
	ConditionSchema,
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
import { deleteProfile, refreshProfileCodes, getProfileDetail, listProfiles, savePersonalInfo, updateProfileFields } from '#app/domain/profiles/profiles.server.ts'
import { claimCode } from '#app/domain/claims/claims.server.ts'
import { addRow, deleteRow, updateRow, type Section } from '#app/domain/profiles/sections.server.ts'
import { clearDnr, deleteDocument, removePicture, saveDnr, savePolicy, uploadDocument, uploadPicture } from '#app/domain/profiles/files.server.ts'
import { uploadLimit } from '#app/domain/uploads/uploads.server.ts'
import { readForm } from '#app/utils/form-body.server.ts'
import { requireUserId } from '#app/middleware/permissions.server.ts'
import { getClientIp } from '#app/utils/request.server.ts'
import { pageUrl } from '#app/utils/http.ts'
import { actionToast, redirectWithToast } from '#app/utils/toast.server.ts'
import type { ToastInput } from '#app/utils/toast.ts'
import { QR_MESSAGES } from '#app/domain/qr/messages.ts'
import { INTENTS, screenHref } from './intents.ts'
import { toProfileView } from '#app/domain/profiles/views.ts'
import type { RequestArgs } from '#app/middleware/user.server.ts'

export const CREATE_PROFILE_FIRST =
	'Please save your basic medical profile information before adding emergency contacts/allergies/medications/medical conditions.'

export async function medicalInfoLoader({ request, context }: RequestArgs) {
	const userId = await requireUserId({ request, context })
	const url = pageUrl(request)
	const profiles = await listProfiles(userId)
	const requested = Number(url.searchParams.get('profile'))
	const selectedId = profiles.find((p) => p.id === requested)?.id ?? profiles[0]?.id ?? null
	const detail = selectedId ? await getProfileDetail(userId, selectedId) : null
	return {
		profiles,
		profile: detail ? toProfileView(detail) : null,
		dialog: url.searchParams.get('dialog'),
		edit: url.searchParams.get('edit'),
	}
}
export type MedicalInfoData = Awaited<ReturnType<typeof medicalInfoLoader>>

type Failure = { intent: string; id?: number | null; result: SubmissionResult<string[]> }

/** The list sections edited by the generic add/update/delete forms. */
const rowIntents: Record<string, { section: Section; op: 'add' | 'update' | 'delete'; schema?: z.ZodType; done: string }> = {
	[INTENTS.addContact]: { section: 'contacts', op: 'add', schema: ContactSchema, done: 'Emergency contact added successfully' },
	[INTENTS.deleteContact]: { section: 'contacts', op: 'delete', done: 'Emergency contact deleted successfully' },
	[INTENTS.addAllergy]: { section: 'allergies', op: 'add', schema: AllergySchema, done: 'Allergy added successfully' },
	[INTENTS.deleteAllergy]: { section: 'allergies', op: 'delete', done: 'Allergy deleted successfully' },
	[INTENTS.addMedication]: { section: 'medications', op: 'add', schema: MedicationSchema, done: 'Medication added successfully' },
	[INTENTS.updateMedication]: { section: 'medications', op: 'update', schema: MedicationSchema, done: 'Medication updated successfully' },
	[INTENTS.deleteMedication]: { section: 'medications', op: 'delete', done: 'Medication deleted successfully' },
	[INTENTS.addCondition]: { section: 'conditions', op: 'add', schema: ConditionSchema, done: 'Medical condition added successfully' },
	[INTENTS.updateCondition]: { section: 'conditions', op: 'update', schema: ConditionSchema, done: 'Medical condition updated successfully' },
	[INTENTS.deleteCondition]: { section: 'conditions', op: 'delete', done: 'Medical condition deleted successfully' },
	[INTENTS.deletePolicy]: { section: 'policies', op: 'delete', done: 'Insurance policy deleted successfully' },
}

export async function medicalInfoAction(request: Request, context: Readonly<RouterContextProvider>) {
	const userId = await requireUserId({ request, context })
	const base = pageUrl(request).pathname
	const form = await readForm(request, uploadLimit('document'))
	if (!form.ok) {
		const headers = await actionToast(request, context, { type: 'error', title: 'Upload Failed', description: form.message })
		return data({ intent: 'upload', id: null, result: { status: 'error', error: { '': [form.message] } } } as unknown as Failure, { status: form.status, headers })
	}
	const formData = form.formData
	const intent = String(formData.get('intent') ?? '')
	const profileIdInput = formData.get('profileId')
	const profileId = profileIdInput ? IdSchema.safeParse(profileIdInput).data ?? null : null
	const rowId = IdSchema.safeParse(formData.get('id')).data ?? null

	const success = (toast: ToastInput, profile = profileId, hash?: string) =>
		redirectWithToast(screenHref(base, { profile }, hash), { type: 'success', ...toast })
	const fail = async (failure: Failure, toast?: ToastInput, status = 400) => {
		const headers = toast ? await actionToast(request, context, { type: 'error', ...toast }) : undefined
		return data(failure, { status, headers })
	}
	const invalid = (submission: { reply: () => Failure['result'] }, id: number | null = rowId) => fail({ intent, id, result: submission.reply() })

	try {
		if (intent === INTENTS.saveProfile) {
			const submission = parseWithZod(formData, { schema: PersonalInfoSchema })
			if (submission.status !== 'success') return invalid(submission)
			const { created, profile } = await savePersonalInfo(userId, submission.value, profileId)
			return success({ description: created ? 'Medical profile created successfully' : 'Medical profile updated successfully' }, profile.id)
		}
		if (intent === INTENTS.addFamily) {
			const submission = parseWithZod(formData, { schema: FamilyMemberSchema })
			if (submission.status !== 'success') return invalid(submission)
			const { pin, ...member } = submission.value
			const result = await claimCode({ userId, address: getClientIp(request, context) }, pin, { newProfile: member })
			if (!result.ok)
				return fail({ intent, result: submission.reply({ fieldErrors: { [result.field ?? 'pin']: [result.message] } }) }, { title: 'Error', description: result.message }, result.status)
			return success({ title: 'Profile Created', description: `${member.fullName} has been created and QR code activated successfully.` }, result.medicalProfileId)
		}
		if (!profileId) return fail({ intent, result: { status: 'error', error: { '': [CREATE_PROFILE_FIRST] } } as Failure['result'] }, { title: 'Create Profile First', description: CREATE_PROFILE_FIRST })

		if (intent === INTENTS.deleteProfile) {
			let unlinked
			try {
				unlinked = await deleteProfile(userId, profileId)
			} catch (error) {
				if (error instanceof DomainError && error.status === 400)
					return fail({ intent, result: { status: 'error', error: { '': [error.message] } } as Failure['result'] }, { title: 'Cannot Delete', description: error.message })
				throw error
			}
			return success({ title: 'Profile Deleted', description: `Profile has been deleted successfully.${QR_MESSAGES.unlinked(unlinked)}` }, null)
		}
		if (intent === INTENTS.setScanning) {
			const { isScannable } = ScanningSchema.parse({ isScannable: formData.get('isScannable') })
			await updateProfileFields(userId, profileId, { isScannable })
			return success({ description: isScannable ? 'Scanning is on: responders can see this profile.' : 'Scanning is off: this profile is private from QR scans.' })
		}
		if (intent === INTENTS.updateQrCodes) {
			const updated = await refreshProfileCodes(userId, profileId)
			return success({ description: QR_MESSAGES.refreshed(updated) })
		}
		if (intent === INTENTS.saveNotes || intent === INTENTS.clearNotes) {
			const submission = parseWithZod(formData, { schema: NotesSchema })
			if (submission.status !== 'success') return invalid(submission)
			const notes = intent === INTENTS.clearNotes ? null : (submission.value.additionalNotes ?? null)
			await updateProfileFields(userId, profileId, { additionalNotes: notes })
			return success({ description: notes ? 'Medical notes saved successfully' : 'Medical notes cleared' }, profileId, 'notes')
		}
		// A refused file is answered beside its field; the toast says what failed, as the spec words it.
		const refusedFile = (error: unknown, toast?: (message: string) => ToastInput, submission?: { reply: (options?: { fieldErrors: Record<string, string[]> }) => Failure['result'] }) => {
			if (!(error instanceof DomainError) || !error.field) throw error
			const fieldErrors = { [error.field]: [error.message] }
			return fail({ intent, id: rowId, result: submission ? submission.reply({ fieldErrors }) : { status: 'error', error: fieldErrors } }, toast?.(error.message))
		}
		if (intent === INTENTS.uploadPicture || intent === INTENTS.removePicture) {
			if (intent === INTENTS.removePicture) await removePicture(userId, profileId)
			else {
				try {
					await uploadPicture(userId, profileId, formData.get('picture'))
				} catch (error) {
					return refusedFile(error, (message) => ({ title: 'Upload Failed', description: message }))
				}
			}
			return success({ description: intent === INTENTS.uploadPicture ? 'Profile picture uploaded and saved successfully' : 'Profile picture removed' })
		}
		if (intent === INTENTS.savePolicy) {
			const submission = parseWithZod(formData, { schema: InsurancePolicySchema })
			if (submission.status !== 'success') return invalid(submission)
			try {
				await savePolicy(userId, profileId, rowId, submission.value, formData.get('cardFrontPhoto'))
			} catch (error) {
				return refusedFile(error, undefined, submission)
			}
			return success({ description: rowId ? 'Insurance policy updated successfully' : 'Insurance policy added successfully' }, profileId, 'insurance')
		}
		if (intent === INTENTS.saveDnr || intent === INTENTS.clearDnr) {
			if (intent === INTENTS.clearDnr) await clearDnr(userId, profileId)
			else {
				// A refused document must not reset the dialog: the reply brings back the status, date and place entered.
				const submission = parseWithZod(formData, { schema: DnrSchema })
				if (submission.status !== 'success') return invalid(submission)
				try {
					await saveDnr(userId, profileId, submission.value, formData.get('document'))
				} catch (error) {
					return refusedFile(
						error,
						(message) => (message === DNR_DOCUMENT_REQUIRED ? { title: 'Document Required', description: message } : { title: 'Upload Failed', description: 'Failed to upload document. Please try again.' }),
						submission,
					)
				}
			}
			return success({ description: intent === INTENTS.saveDnr ? 'DNR status saved successfully' : 'DNR status cleared' }, profileId, 'dnr')
		}
		if (intent === INTENTS.uploadDocument) {
			try {
				await uploadDocument(userId, profileId, formData.get('document'))
			} catch (error) {
				return refusedFile(error, (message) => ({ title: 'Upload Failed', description: message }))
			}
			return success({ description: 'Medical document uploaded successfully' }, profileId, 'documents')
		}
		if (intent === INTENTS.deleteDocument) {
			if (!rowId) return fail({ intent, result: { status: 'error', error: { '': ['Document not found'] } } as Failure['result'] })
			await deleteDocument(userId, rowId)
			return success({ description: 'Document deleted successfully' }, profileId, 'documents')
		}

		const row = rowIntents[intent]
		if (!row) return fail({ intent, result: { status: 'error', error: { '': ['Unknown action'] } } as Failure['result'] })
		if (row.op === 'delete') {
			if (!rowId) throw new DomainError(404, 'Not found')
			await deleteRow(userId, row.section, rowId)
		} else {
			const submission = parseWithZod(formData, { schema: row.schema! })
			if (submission.status !== 'success') return invalid(submission)
			if (row.op === 'add') await addRow(userId, row.section, profileId, submission.value as never)
			else await updateRow(userId, row.section, rowId ?? 0, submission.value as never)
		}
		return success({ description: row.done }, profileId, row.section)
	} catch (error) {
		if (error instanceof DomainError && error.status === 404) throw data(error.message, { status: 404 })
		throw error
	}
}
