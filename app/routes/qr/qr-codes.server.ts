import { DomainError } from '#app/domain/errors.ts'
import { readPageForm } from '#app/utils/request.server.ts'
import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import { getAccessLevel } from '#app/domain/claims/claims.server.ts'
import { listProfiles } from '#app/domain/profiles/profiles.server.ts'
import { IdSchema } from '#app/domain/profiles/schemas.ts'
import { QrCustomizationFormSchema } from '#app/domain/qr/form-schema.ts'
import { assignCodeToProfile, customizeCode, deleteCode, generateOrUpdateCode, listCodes, scanHistory, toggleCode } from '#app/domain/qr/manage.server.ts'
import { renderQrSvg } from '#app/domain/qr/render.server.ts'
import { requireUser, requireUserId } from '#app/middleware/permissions.server.ts'
import { pageUrl } from '#app/utils/http.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { QR_MESSAGES } from '#app/domain/qr/messages.ts'
import { QR_INTENTS } from './intents.ts'
import type { RequestArgs } from '#app/middleware/user.server.ts'


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
		history: historyId && codes.some((c) => c.id === historyId) ? { codeId: historyId, scans: await scanHistory(userId, historyId) } : null,
		dialog: url.searchParams.get('dialog'),
	}
}
export type QrCodesData = Awaited<ReturnType<typeof qrCodesLoader>>

export async function qrCodesAction({ request, context }: RequestArgs) {
	const userId = await requireUserId({ request, context })
	const base = pageUrl(request).pathname
	const formData = await readPageForm(request)
	const intent = String(formData.get('intent') ?? '')
	const codeId = IdSchema.safeParse(formData.get('codeId')).data
	const here = (id = codeId) => `${base}${id ? `?code=${id}` : ''}`
	try {
		if (intent === QR_INTENTS.generate || intent === QR_INTENTS.customize) {
			const submission = parseWithZod(formData, { schema: QrCustomizationFormSchema })
			if (submission.status !== 'success') return data({ intent, result: submission.reply() }, { status: 400 })
			if (intent === QR_INTENTS.customize) {
				if (!codeId) throw new DomainError(404, 'QR code not found')
				await customizeCode(userId, codeId, submission.value)
				return redirectWithToast(here(), { type: 'success', description: QR_MESSAGES.updated })
			}
			const profileId = IdSchema.safeParse(formData.get('profileId')).data
			if (!profileId) return data({ intent, result: submission.reply({ formErrors: [QR_MESSAGES.noProfile] }) }, { status: 400 })
			const { code, isUpdated } = await generateOrUpdateCode(userId, profileId, submission.value)
			return redirectWithToast(here(code.id), { type: 'success', description: isUpdated ? QR_MESSAGES.updated : QR_MESSAGES.generated })
		}
		if (!codeId) throw new DomainError(404, 'QR code not found')
		if (intent === QR_INTENTS.toggle) {
			const isActive = await toggleCode(userId, codeId)
			return redirectWithToast(
				here(),
				isActive ? { type: 'success', ...QR_MESSAGES.activated } : QR_MESSAGES.deactivated,
			)
		}
		if (intent === QR_INTENTS.remove) {
			await deleteCode(userId, codeId)
			return redirectWithToast(base, { type: 'success', description: QR_MESSAGES.deleted })
		}
		if (intent === QR_INTENTS.assign) {
			const profileId = IdSchema.safeParse(formData.get('profileId')).data
			if (!profileId) throw new DomainError(404, 'Profile not found')
			await assignCodeToProfile(userId, codeId, profileId)
			return redirectWithToast(here(), { type: 'success', description: 'The QR code now shows the chosen profile' })
		}
		return data({ intent, result: { status: 'error' as const, error: { '': ['Unknown action'] } } }, { status: 400 })
	} catch (error) {
		if (error instanceof DomainError) {
			if (error.status === 404) throw data(error.message, { status: 404 })
			return data({ intent, result: { status: 'error' as const, error: { '': [error.message] } } }, { status: error.status })
		}
		if (error instanceof DomainError) throw data('Not found', { status: 404 })
		throw error
	}
}
