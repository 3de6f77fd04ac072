import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import { z } from 'zod'
import { profileLabel } from '#app/domain/profiles/labels.ts'
import { listProfiles } from '#app/domain/profiles/profiles.server.ts'
import { IdSchema } from '#app/domain/profiles/schemas.ts'
import { DNR_STATUS } from '#app/domain/profiles/vocabularies.ts'
import { applyImport, previewImport, type ImportResult, type SummarySource } from '#app/domain/sharing/ips-import.server.ts'
import { SUMMARY_MAX_BYTES, SUMMARY_MESSAGES } from '#app/domain/sharing/ips-read.ts'
import { IMPORT_INTENTS } from '#app/domain/sharing/options.ts'
import { ImportConfirmSchema, ImportReadSchema } from '#app/domain/sharing/schemas.ts'
import { requireUserId } from '#app/middleware/permissions.server.ts'
import { requestOrigin } from '#app/utils/client-place.server.ts'
import { DomainError, UNKNOWN_ACTION } from '#app/utils/errors.ts'
import { FORM_LIMIT, readForm } from '#app/utils/form-body.server.ts'
import { pageUrl } from '#app/utils/http.ts'
import { replyError } from '#app/utils/reply-error.server.ts'
import type { RequestArgs } from '#app/utils/request.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { screenHref } from './intents.ts'

/** The summary (1 MB at most, as a file or carried back by the review) and the form's other fields. */
const IMPORT_FORM_LIMIT = { ...FORM_LIMIT, maxBytes: SUMMARY_MAX_BYTES + 256 * 1024, tooLarge: SUMMARY_MESSAGES.tooLarge }

const ImportFormSchema = z.discriminatedUnion(
	'intent',
	[
		ImportReadSchema.extend({ intent: z.literal(IMPORT_INTENTS.read) }),
		ImportConfirmSchema.extend({ intent: z.literal(IMPORT_INTENTS.confirm) }),
	],
	{ error: UNKNOWN_ACTION },
)

/** The profile the page fills: ?profile= (one of the person's, else not found), or their first. */
async function chosenProfile(args: RequestArgs) {
	const userId = await requireUserId(args)
	const asked = pageUrl(args.request).searchParams.get('profile')
	const profiles = await listProfiles(userId)
	const profile = asked === null ? profiles[0] : profiles.find((p) => p.id === IdSchema.safeParse(asked).data)
	if (asked !== null && !profile) throw data('Profile not found', { status: 404 })
	return { userId, profile: profile ? { id: profile.id, name: profileLabel(profile) } : null }
}

export async function importLoader(args: RequestArgs) {
	return { profile: (await chosenProfile(args)).profile }
}

const readerOf = ({ request, context }: RequestArgs) => {
	const origin = requestOrigin(request, context)
	return { ipAddress: origin.ipAddress, place: [origin.city, origin.region, origin.country].filter(Boolean).join(', ') || null }
}

const chosenFile = (value: unknown): value is File => value instanceof File && (value.size > 0 || value.name !== '')

/** The file, or the link (with its passcode): one of the two. */
async function sourceOf(form: z.output<typeof ImportReadSchema>): Promise<SummarySource> {
	const file = chosenFile(form.bundle) ? form.bundle : null
	if (file && form.shlink) throw new DomainError(400, 'Choose a file or paste a link, not both.', 'bundle')
	if (!file && !form.shlink) throw new DomainError(400, 'Choose a health summary file, or paste a SMART Health Link.', 'bundle')
	if (!file) return { shlink: form.shlink!, ...(form.passcode ? { passcode: form.passcode } : {}) }
	if (file.size > SUMMARY_MAX_BYTES) throw new DomainError(413, SUMMARY_MESSAGES.tooLarge, 'bundle')
	return { bundleText: await file.text() }
}

/**
 * The page's two forms. Reading a summary answers the review (nothing is saved); confirming adds the ticked items and
 * goes back to the Medical Information screen with a toast. A refusal comes back beside its field, or above the review.
 */
export async function importAction(args: RequestArgs) {
	const { userId, profile } = await chosenProfile(args)
	if (!profile) throw data('Profile not found', { status: 404 })
	const read = await readForm(args.request, IMPORT_FORM_LIMIT)
	if (!read.ok) {
		const nothing = parseWithZod(new FormData(), { schema: z.object({}) })
		return replyError(args, nothing, new DomainError(read.status, read.message, 'bundle'))
	}
	const submission = parseWithZod(read.formData, { schema: ImportFormSchema })
	if (submission.status !== 'success') return data({ result: submission.reply({ hideFields: ['passcode', 'bundle'] }) }, { status: 400 })
	const form = submission.value
	const reader = readerOf(args)
	if (form.intent === IMPORT_INTENTS.read) {
		try {
			const review = await previewImport(userId, profile.id, await sourceOf(form), reader)
			return { review }
		} catch (error) {
			return replyError(args, submission, error, { hideFields: ['passcode', 'bundle'] })
		}
	}
	const source = { bundleText: form.bundle }
	try {
		const added = await applyImport(userId, profile.id, source, form.accept, reader)
		return await redirectWithToast(screenHref('/medical-info', { profile: profile.id }), {
			type: 'success',
			title: 'Added from the health summary',
			description: addedText(added),
		})
	} catch (error) {
		// The review again, with the refusal above it (the summary it carried was read when it was shown).
		const review = error instanceof DomainError ? await previewImport(userId, profile.id, source, reader).catch(() => null) : null
		return replyError(args, submission, error, { extra: { review }, hideFields: ['bundle'] })
	}
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

/** "Added 2 allergies, 1 medication and the DNR status (No DNR)." */
export function addedText(added: ImportResult) {
	const parts = [
		added.allergies.length ? count(added.allergies.length, 'allergy', 'allergies') : null,
		added.medications.length ? count(added.medications.length, 'medication', 'medications') : null,
		added.conditions.length ? count(added.conditions.length, 'condition', 'conditions') : null,
		added.dnrStatus ? `the DNR status (${DNR_STATUS.labels[added.dnrStatus]})` : null,
	].filter((p): p is string => p !== null)
	if (!parts.length) return 'Nothing changed: the profile already had what you chose.'
	const list = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`
	return `Added ${list}.`
}
