import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import { DomainError } from '#app/utils/errors.ts'
import { profileLabel } from '#app/domain/profiles/labels.ts'
import { listProfiles } from '#app/domain/profiles/profiles.server.ts'
import { IdSchema } from '#app/domain/profiles/schemas.ts'
import { createHealthLink, listHealthLinks, revokeHealthLink, type HealthLinkView } from '#app/domain/sharing/health-links.server.ts'
import { HEALTH_LINK_INTENTS, HEALTH_LINK_MESSAGES } from '#app/domain/sharing/options.ts'
import { HealthLinkSchema } from '#app/domain/sharing/schemas.ts'
import { requireUserId } from '#app/middleware/permissions.server.ts'
import type { RequestArgs } from '#app/middleware/user.server.ts'
import { readForm } from '#app/utils/form-body.server.ts'
import { formatEtTime } from '#app/utils/dates.ts'
import { pageUrl } from '#app/utils/http.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'

/**
 * For the QR Codes tab's loader: a card per profile with its SMART Health Links, each active one with its text and QR
 * code. Names and times are written here, so the cards' code needs neither the labels nor the date formats.
 */
export async function healthLinksData(args: RequestArgs) {
	const userId = await requireUserId(args)
	const [profiles, links] = await Promise.all([listProfiles(userId), listHealthLinks(userId)])
	return profiles.map((profile) => ({
		profileId: profile.id,
		name: profileLabel(profile),
		links: links.filter((link) => link.profileId === profile.id).map(toCardLink),
	}))
}
export type HealthLinkCard = Awaited<ReturnType<typeof healthLinksData>>[number]

function toCardLink(link: HealthLinkView) {
	const when = (date: Date | null) => (date ? formatEtTime(date) : null)
	return {
		id: link.id,
		label: link.label,
		state: link.state,
		expires: when(link.expiresAt),
		hasPasscode: link.hasPasscode,
		attemptsLeft: link.attemptsLeft,
		accessCount: link.accessCount,
		lastOpened: when(link.lastAccessedAt),
		revoked: when(link.revokedAt),
		shlink: link.shlink,
		qrSvg: link.qrSvg,
	}
}

/** The SMART Health Link forms are small; a larger body is some other form of the tab. */
const PEEK = { maxBytes: 16 * 1024, tooLarge: '', unreadable: '' }
const INTENTS: readonly string[] = Object.values(HEALTH_LINK_INTENTS)

/**
 * The tab's action for the SMART Health Link forms (create, revoke), or null for any other form of the tab, whose own
 * action then reads the request as sent. A created or revoked link comes back to the tab with a toast; a refused form
 * comes back with its messages beside its fields.
 */
export async function healthLinkAction(args: RequestArgs) {
	const peek = await readForm(args.request.clone(), PEEK)
	const intent = peek.ok ? peek.formData.get('intent') : null
	if (typeof intent !== 'string' || !INTENTS.includes(intent)) return null
	const userId = await requireUserId(args)
	const form = peek.ok ? peek.formData : new FormData()
	const back = `${pageUrl(args.request).pathname}#health-links`
	if (intent === HEALTH_LINK_INTENTS.revoke) {
		const linkId = IdSchema.safeParse(form.get('linkId'))
		if (!linkId.success) throw data(HEALTH_LINK_MESSAGES.notFound, { status: 404 })
		await orNotFound(revokeHealthLink(userId, linkId.data))
		return redirectWithToast(back, { type: 'success', description: HEALTH_LINK_MESSAGES.revoked })
	}
	const profileId = IdSchema.safeParse(form.get('profileId'))
	if (!profileId.success) throw data('Profile not found', { status: 404 })
	const submission = parseWithZod(form, { schema: HealthLinkSchema })
	// `result` stays the tab's own (its banner reads it): this form shows its messages beside its fields.
	const refused = (result: ReturnType<typeof submission.reply>) =>
		data({ intent, result: undefined, healthLink: { profileId: profileId.data, result } }, { status: 400 })
	if (submission.status !== 'success') return refused(submission.reply({ hideFields: ['passcode'] }))
	try {
		await orNotFound(createHealthLink(userId, profileId.data, submission.value))
	} catch (error) {
		if (error instanceof DomainError && error.status === 409)
			return refused(submission.reply({ formErrors: [error.message], hideFields: ['passcode'] }))
		throw error
	}
	return redirectWithToast(back, { type: 'success', description: HEALTH_LINK_MESSAGES.created })
}

/** Another person's profile or link reads as an unknown one: the tab's 404. */
async function orNotFound<T>(work: Promise<T>) {
	try {
		return await work
	} catch (error) {
		if (error instanceof DomainError && error.status === 404) throw data(error.message, { status: 404 })
		throw error
	}
}
