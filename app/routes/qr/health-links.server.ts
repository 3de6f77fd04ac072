import { z } from 'zod'
import { DomainError } from '#app/utils/errors.ts'
import { profileLabel } from '#app/domain/profiles/labels.ts'
import { listProfiles } from '#app/domain/profiles/profiles.server.ts'
import { IdSchema } from '#app/domain/profiles/schemas.ts'
import { createHealthLink, listHealthLinks, revokeHealthLink, type HealthLinkView } from '#app/domain/sharing/health-links.server.ts'
import { HEALTH_LINK_INTENTS, HEALTH_LINK_MESSAGES } from '#app/domain/sharing/options.ts'
import { HealthLinkSchema } from '#app/domain/sharing/schemas.ts'
import { requireUserId } from '#app/middleware/permissions.server.ts'
import type { RequestArgs } from '#app/utils/request.server.ts'
import { formatEtTime } from '#app/utils/dates.ts'
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

/** The SMART Health Link forms of the tab, as its action's union of forms reads them. */
export const HealthLinkForms = [
	HealthLinkSchema.extend({ intent: z.literal(HEALTH_LINK_INTENTS.create), profileId: IdSchema.optional().catch(undefined) }),
	z.object({ intent: z.literal(HEALTH_LINK_INTENTS.revoke), linkId: IdSchema.optional().catch(undefined) }),
] as const
type CreateForm = z.infer<(typeof HealthLinkForms)[0]>
type RevokeForm = z.infer<(typeof HealthLinkForms)[1]>

/** A created link comes back to the tab with a toast; another person's profile reads as an unknown one (404). */
export async function createLinkAction(userId: string, form: CreateForm, base: string) {
	if (!form.profileId) throw new DomainError(404, 'Profile not found')
	const { intent: _intent, profileId, ...link } = form
	await createHealthLink(userId, profileId, link)
	return redirectWithToast(`${base}#health-links`, { type: 'success', description: HEALTH_LINK_MESSAGES.created })
}

/**
 * A revoked link comes back to the tab with a toast and focus on it (named in the URL: a fragment would stop the
 * browser's autofocus); another person's link reads as an unknown one (404).
 */
export async function revokeLinkAction(userId: string, form: RevokeForm, base: string) {
	if (!form.linkId) throw new DomainError(404, HEALTH_LINK_MESSAGES.notFound)
	await revokeHealthLink(userId, form.linkId)
	return redirectWithToast(`${base}?revoked=${form.linkId}`, { type: 'success', description: HEALTH_LINK_MESSAGES.revoked })
}
