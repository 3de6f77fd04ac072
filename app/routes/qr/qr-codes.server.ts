import { DomainError, UNKNOWN_ACTION, unhandledIntent } from '#app/utils/errors.ts'
import { formValues } from '#app/utils/form-values.ts'
import { readPageForm } from '#app/utils/request.server.ts'
import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import { z } from 'zod'
import { getAccessLevel } from '#app/domain/claims/claims.server.ts'
import { listProfiles } from '#app/domain/profiles/profiles.server.ts'
import { IdSchema } from '#app/domain/profiles/schemas.ts'
import { QrCustomizationFormSchema } from '#app/domain/qr/form-schema.ts'
import {
	assignCodeToProfile,
	customizeCode,
	deleteCode,
	generateOrUpdateCode,
	listCodes,
	scanHistory,
	toggleCode,
} from '#app/domain/qr/manage.server.ts'
import { renderQrSvg } from '#app/domain/qr/render.server.ts'
import { helpingReportsOf, setSenderBlocked } from '#app/domain/responder/helping.server.ts'
import { requireUser, requireUserId } from '#app/middleware/permissions.server.ts'
import { pageUrl } from '#app/utils/http.ts'
import { replyError } from '#app/utils/reply-error.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { QR_MESSAGES } from '#app/domain/qr/messages.ts'
import { QR_INTENTS } from './intents.ts'
import { SENDER_INTENTS } from './sender-intents.ts'
import { pinAction } from '../../features/pin-claim/pin-action.server.ts'
import { PIN_INTENT } from '#app/domain/claims/pin-intent.ts'
import type { RequestArgs } from '#app/utils/request.server.ts'
import { HEALTH_LINK_INTENTS } from '#app/domain/sharing/options.ts'
import { createLinkAction, HealthLinkForms, revokeLinkAction } from './health-links.server.ts'

export async function qrCodesLoader({ request, context }: RequestArgs) {
	const { id: userId, isGrandfathered } = await requireUser({ request, context })
	const url = pageUrl(request)
	const [access, profiles, codes] = await Promise.all([getAccessLevel(userId, isGrandfathered), listProfiles(userId), listCodes(userId)])
	const selected = codes.find((c) => c.id === Number(url.searchParams.get('code'))) ?? codes[0] ?? null
	// "Preview" without JavaScript: the customisation form is a GET that comes back here.
	const asked = url.searchParams.has('preview') ? QrCustomizationFormSchema.safeParse(Object.fromEntries(url.searchParams)) : null
	const look = asked?.success ? asked.data : (selected?.customization ?? null)
	const historyId = Number(url.searchParams.get('history'))
	return {
		access,
		profiles,
		codes,
		selectedId: selected?.id ?? null,
		look,
		previewError: asked && !asked.success ? (asked.error.issues[0]?.message ?? 'Invalid customisation') : null,
		previewSvg: selected && look ? renderQrSvg({ ...look, data: selected.scanUrl, width: 280 }) : null,
		history: historyId && codes.some((c) => c.id === historyId) ? await codeHistory(userId, historyId) : null,
		dialog: url.searchParams.get('dialog'),
		deleted: Number(url.searchParams.get('deleted')) || null,
	}
}
export type QrCodesData = Awaited<ReturnType<typeof qrCodesLoader>>

/** A code's scans and what "I'm helping" senders wrote from it, for its owner. */
async function codeHistory(userId: string, codeId: number) {
	const scans = await scanHistory(userId, codeId)
	return { codeId, scans, reports: await helpingReportsOf(codeId) }
}

const optionalId = IdSchema.optional().catch(undefined)
/** Every form of the tab: the code's, the scan history's, the SMART Health Links' and the PIN card. */
const QrActionSchema = z.discriminatedUnion(
	'intent',
	[
		QrCustomizationFormSchema.extend({ intent: z.literal(QR_INTENTS.generate), profileId: optionalId }),
		QrCustomizationFormSchema.extend({ intent: z.literal(QR_INTENTS.customize), codeId: optionalId }),
		z.object({ intent: z.literal(QR_INTENTS.toggle), codeId: optionalId }),
		z.object({ intent: z.literal(QR_INTENTS.remove), codeId: optionalId }),
		z.object({ intent: z.literal(QR_INTENTS.assign), codeId: optionalId, profileId: optionalId }),
		z.object({ intent: z.literal(SENDER_INTENTS.block), codeId: optionalId, reportId: optionalId }),
		z.object({ intent: z.literal(SENDER_INTENTS.unblock), codeId: optionalId, reportId: optionalId }),
		...HealthLinkForms,
		// Another sticker, claimed from here: its own action reads its form (pin-action.server.ts).
		z.object({ intent: z.literal(PIN_INTENT) }),
	],
	{ error: UNKNOWN_ACTION },
)
type QrAction = z.infer<typeof QrActionSchema>
type Of<I extends QrAction['intent']> = Extract<QrAction, { intent: I }>

export async function qrCodesAction({ request, context }: RequestArgs) {
	const userId = await requireUserId({ request, context })
	const form = await readPageForm(request)
	const submission = parseWithZod(form, { schema: QrActionSchema })
	// A passcode is never sent back.
	const hideFields = ['passcode']
	if (submission.status !== 'success') {
		const { intent, profileId } = submission.payload
		const typed = { intent: typeof intent === 'string' ? intent.slice(0, 50) : '', profileId: optionalId.parse(profileId) ?? null }
		if (submission.error?.intent)
			return replyError({ request, context }, submission, new DomainError(400, UNKNOWN_ACTION), { extra: typed })
		return data({ ...typed, result: submission.reply({ hideFields }) }, { status: 400 })
	}
	const action = submission.value
	if (action.intent === PIN_INTENT) return pinAction({ request, context }, form)
	try {
		return await perform(action, userId, pageUrl(request).pathname)
	} catch (error) {
		const profileId = 'profileId' in action ? (action.profileId ?? null) : null
		// The SMART Health Link form has always answered its refusal (five links at most) with a 400.
		const statuses = action.intent === HEALTH_LINK_INTENTS.create ? { 409: 400 } : undefined
		return replyError({ request, context }, submission, error, { extra: { intent: action.intent, profileId }, hideFields, statuses })
	}
}

function perform(action: Exclude<QrAction, { intent: typeof PIN_INTENT }>, userId: string, base: string) {
	switch (action.intent) {
		case QR_INTENTS.generate:
			return generate(action, userId, base)
		case QR_INTENTS.customize:
			return customize(action, userId, base)
		case QR_INTENTS.toggle:
			return toggle(action, userId, base)
		case QR_INTENTS.remove:
			return remove(action, userId, base)
		case QR_INTENTS.assign:
			return assign(action, userId, base)
		case SENDER_INTENTS.block:
		case SENDER_INTENTS.unblock:
			return blockSender(action, userId, base)
		case HEALTH_LINK_INTENTS.create:
			return createLinkAction(userId, action, base)
		case HEALTH_LINK_INTENTS.revoke:
			return revokeLinkAction(userId, action, base)
		default:
			return unhandledIntent(action)
	}
}

/** The look the code form sent, without the form's intent and ids. */
const lookOf = <T extends object>(action: T) => formValues(action, ['intent', 'codeId', 'profileId'])

const codeHref = (base: string, id: number) => `${base}?code=${id}`
function requireCode(id: number | undefined) {
	if (!id) throw new DomainError(404, 'QR code not found')
	return id
}

async function generate(action: Of<typeof QR_INTENTS.generate>, userId: string, base: string) {
	if (!action.profileId) throw new DomainError(400, QR_MESSAGES.noProfile)
	const { code, isUpdated } = await generateOrUpdateCode(userId, action.profileId, lookOf(action))
	return redirectWithToast(codeHref(base, code.id), {
		type: 'success',
		description: isUpdated ? QR_MESSAGES.updated : QR_MESSAGES.generated,
	})
}

async function customize(action: Of<typeof QR_INTENTS.customize>, userId: string, base: string) {
	const codeId = requireCode(action.codeId)
	await customizeCode(userId, codeId, lookOf(action))
	return redirectWithToast(codeHref(base, codeId), { type: 'success', description: QR_MESSAGES.updated })
}

async function toggle(action: Of<typeof QR_INTENTS.toggle>, userId: string, base: string) {
	const codeId = requireCode(action.codeId)
	const isActive = await toggleCode(userId, codeId)
	return redirectWithToast(codeHref(base, codeId), isActive ? { type: 'success', ...QR_MESSAGES.activated } : QR_MESSAGES.deactivated)
}

async function remove(action: Of<typeof QR_INTENTS.remove>, userId: string, base: string) {
	const codeId = requireCode(action.codeId)
	await deleteCode(userId, codeId)
	// Named in the URL, not by a fragment (which would stop the browser's autofocus): focus goes where the code was.
	return redirectWithToast(`${base}?deleted=${codeId}`, { type: 'success', description: QR_MESSAGES.deleted })
}

async function assign(action: Of<typeof QR_INTENTS.assign>, userId: string, base: string) {
	const codeId = requireCode(action.codeId)
	if (!action.profileId) throw new DomainError(404, 'Profile not found')
	await assignCodeToProfile(userId, codeId, action.profileId)
	return redirectWithToast(codeHref(base, codeId), { type: 'success', description: 'The QR code now shows the chosen profile' })
}

async function blockSender(action: Of<typeof SENDER_INTENTS.block | typeof SENDER_INTENTS.unblock>, userId: string, base: string) {
	const codeId = requireCode(action.codeId)
	if (!action.reportId) throw new DomainError(404, 'Report not found')
	const blocked = action.intent === SENDER_INTENTS.block
	await setSenderBlocked(userId, action.reportId, blocked)
	return redirectWithToast(`${base}?code=${codeId}&history=${codeId}#history-title`, {
		type: 'success',
		description: blocked
			? 'Sender blocked: nothing more they send from this code reaches anyone.'
			: 'Sender unblocked: their messages from this code go out again.',
	})
}
