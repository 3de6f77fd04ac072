import { isbot } from 'isbot'
import { browserAndDevice } from '#app/domain/analytics/collect.server.ts'
import { and, asc, eq, isNotNull, isNull, lte, or, sql } from 'drizzle-orm'
import { db } from '#db/client.ts'
import {
	allergies,
	emergencyContacts,
	insurancePolicies,
	medicalConditions,
	medicalProfiles,
	medications,
	qrCodes,
	qrScans,
	rateLimits,
	users,
} from '#db/schema.ts'
import { deliverSoon, queueEmail, type EmailInput } from '#app/adapters/mail.server.ts'
import { env } from '#app/utils/env.server.ts'
import { auditRead } from '#app/domain/profiles/audit.server.ts'
import { caregiverRecipients } from '#app/domain/profiles/caregivers.server.ts'
import { readProfile } from '#app/domain/profiles/vocabularies.ts'
import { placeFromHeaders } from '#app/utils/client-place.server.ts'

const sections = {
	emergencyContacts: { orderBy: asc(emergencyContacts.id) },
	allergies: { orderBy: asc(allergies.id) },
	medications: { orderBy: asc(medications.id) },
	medicalConditions: { orderBy: asc(medicalConditions.id) },
	insurancePolicies: { orderBy: asc(insurancePolicies.id) },
} as const

// The scan page is the hottest path: its statements are built once, not per request.
const codeByToken = db.query.qrCodes
	.findFirst({
		columns: { id: true, pin: true, userId: true, medicalProfileId: true, isActive: true, expiresAt: true },
		where: eq(qrCodes.token, sql.placeholder('token')),
		with: { medicalProfile: { with: sections } },
	})
	.prepare('responder_code')

/** What a scan may show. Only an active code of a profile with scanning on reveals anything about the person. */
export async function loadResponderView(token: string) {
	if (!/^[A-Za-z0-9_-]{16,64}$/.test(token)) return { state: 'unknown' as const }
	const code = await codeByToken.execute({ token })
	if (!code) return { state: 'unknown' as const }
	if (!code.userId) return { state: 'unclaimed' as const, codeId: code.id }
	// Exactly the linked profile (a constraint keeps it the owner's); an unlinked code shows nothing, never another profile.
	const profile = code.medicalProfile
	const expired = code.expiresAt != null && code.expiresAt < new Date()
	if (!code.isActive || expired || !profile || !profile.isScannable) return { state: 'inactive' as const, codeId: code.id }
	return {
		state: 'active' as const,
		codeId: code.id,
		codeName: code.pin ? `QR code ${code.pin}` : `QR code #${code.id}`,
		ownerId: code.userId,
		// As the vocabularies spell each value, whatever spelling it was stored in (DNR and POLST are matched on).
		profile: readProfile(profile),
	}
}
export type ResponderView = Awaited<ReturnType<typeof loadResponderView>>
export type ResponderProfile = Extract<ResponderView, { state: 'active' }>['profile']

/** Coarse location only, and only from a CDN or proxy we trust (the caller passes its headers, or null). */
function geo(headers: Headers | null) {
	if (!headers) return { city: null, state: null, country: null }
	const { city, region, country } = placeFromHeaders(headers)
	return { city, state: region, country }
}

/** History rows per code, address and minute: reloads, or a script hammering one code, add nothing past these. */
export const SCANS_RECORDED_PER_MINUTE = 5

type ScanRow = {
	codeId: number
	key: string
	deviceType: string
	scannerType: ScannerType
	city: string | null
	state: string | null
	country: string | null
}

/** Counts the visit against its code and address, and inserts the history row only while under the limit: one statement. */
function insertScan(row: ScanRow) {
	return db.execute(sql`
		with counter as (
			insert into ${rateLimits} (key, count, reset_at) values (${row.key}, 1, now() + interval '1 minute')
			on conflict (key) do update set
				count = case when ${rateLimits.resetAt} <= now() then 1 else ${rateLimits.count} + 1 end,
				reset_at = case when ${rateLimits.resetAt} <= now() then now() + interval '1 minute' else ${rateLimits.resetAt} end
			returning count
		)
		insert into ${qrScans} (qr_code_id, device_type, scanner_type, is_emergency_access, city, state, country)
		select ${row.codeId}, ${row.deviceType}, ${row.scannerType}, ${row.scannerType === 'emergency_responder'}, ${row.city}, ${row.state}, ${row.country}
		from counter where counter.count <= ${SCANS_RECORDED_PER_MINUTE}`)
}

/**
 * Takes the code's alert slot when its owner was not e-mailed in the last 10 minutes and, in the same transaction,
 * records the e-mail that tells them: of simultaneous scans on any number of app instances exactly one wins the slot,
 * and a slot is never taken without its message (a database lost in between loses both, and the next scan tries again).
 * Not an edit, so updatedAt stays. The message is only recorded here; its 'send-email' job sends it, so a slow mail
 * server never delays a responder.
 */
async function alertOwnerOnce(codeId: number, now: Date) {
	const queued = await db.transaction(async (tx) => {
		const [slot] = await tx
			.update(qrCodes)
			.set({ scanAlertSentAt: sql`now()`, updatedAt: sql`${qrCodes.updatedAt}` })
			.where(
				and(
					eq(qrCodes.id, codeId),
					isNotNull(qrCodes.userId),
					or(isNull(qrCodes.scanAlertSentAt), lte(qrCodes.scanAlertSentAt, sql`now() - interval '10 minutes'`)),
				),
			)
			.returning({ id: qrCodes.id })
		if (!slot) return false
		const [owner] = await tx
			.select({
				email: users.email,
				userId: users.id,
				pin: qrCodes.pin,
				profileId: qrCodes.medicalProfileId,
				profileName: medicalProfiles.fullName,
			})
			.from(qrCodes)
			.innerJoin(users, eq(users.id, qrCodes.userId))
			.leftJoin(medicalProfiles, eq(medicalProfiles.id, qrCodes.medicalProfileId))
			.where(eq(qrCodes.id, codeId))
		await queueEmail(tx, scanAlertEmail(codeId, owner!, now))
		// The profile's caregivers hear of it too, from the same slot.
		for (const caregiver of owner!.profileId ? await caregiverRecipients(tx, owner!.profileId) : [])
			await queueEmail(tx, caregiverScanAlertEmail(codeId, { ...owner!, ...caregiver }, now))
		return true
	})
	if (queued) deliverSoon()
	return queued
}

/** The message telling the owner their code was scanned at `now`. */
export function scanAlertEmail(
	codeId: number,
	owner: { email: string; userId: string; pin: string | null; profileName: string | null },
	now: Date,
): EmailInput {
	const when = scanTime(now)
	const code = owner.pin ? `QR code ${owner.pin}` : `QR code #${codeId}`
	const profile = owner.profileName ?? 'your medical profile'
	return {
		to: owner.email,
		userId: owner.userId,
		type: 'scan-alert',
		subject: `Your ${code} was scanned`,
		text: [
			`Your ${code} (${profile}) was scanned on ${when}.`,
			'If someone may need help, try to reach them now.',
			`If you did not expect this, you can turn the code off from your dashboard: ${new URL('/dashboard', env.PUBLIC_URL)}`,
			'You get at most one of these messages per code every 10 minutes.',
		].join('\n\n'),
	}
}

/** The message telling a caregiver that a code of the profile shared with them was scanned at `now`. */
export function caregiverScanAlertEmail(
	codeId: number,
	caregiver: { email: string; userId: string; pin: string | null; profileName: string | null; ownerName: string | null },
	now: Date,
): EmailInput {
	const owned = scanAlertEmail(codeId, caregiver, now)
	const code = caregiver.pin ? `QR code ${caregiver.pin}` : `QR code #${codeId}`
	const profile = caregiver.profileName ?? 'a medical profile shared with you'
	return {
		...owned,
		subject: `A QR code you help keep was scanned`,
		text: [
			`The ${code} of ${profile}, which ${caregiver.ownerName ?? 'its owner'} shares with you, was scanned on ${scanTime(now)}.`,
			'If someone may need help, try to reach them now.',
			`You get this because you help keep this profile; its owner can stop sharing it, or you can leave it, on the Medical Information page: ${new URL('/medical-info', env.PUBLIC_URL)}`,
			'You get at most one of these messages per code every 10 minutes.',
		].join('\n\n'),
	}
}

const scanTime = (now: Date) =>
	`${new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeStyle: 'short', timeZone: 'America/New_York' }).format(now)} ET`

/**
 * Who scanned: someone helping (an emergency access), the code's owner checking their own page, or a link preview
 * (a messaging app or crawler fetching the address, not a person).
 */
export type ScannerType = 'emergency_responder' | 'owner' | 'link_preview'

/**
 * Who scanned, as far as it matters: their device, their address (for the limit), geolocation headers from a trusted
 * proxy, and the signed-in account if any.
 */
export type ScanVisit = {
	userAgent: string | null
	address: string
	trustedHeaders: Headers | null
	viewerIsOwner: boolean
	viewerId?: string | null
}

/** What a scan showed: a profile, read by someone other than its account, goes on that account's access record. */
export type ShownProfile = { profileId: number; ownerId: string; codeName: string }

export function scannerTypeOf(visit: Pick<ScanVisit, 'userAgent' | 'viewerIsOwner'>): ScannerType {
	if (!visit.userAgent || isbot(visit.userAgent)) return 'link_preview'
	return visit.viewerIsOwner ? 'owner' : 'emergency_responder'
}

/**
 * Records the scan (within the per-address limit) and, when the owner is due an e-mail about it, the message
 * (alertOwnerOnce). The owner looking at their own page is recorded, but not e-mailed about.
 */
export async function recordScan(codeId: number, visit: ScanVisit, shown: ShownProfile | null = null, now = new Date()) {
	const { city, state, country } = geo(visit.trustedHeaders)
	const [, alertOwner] = await Promise.all([
		insertScan({
			codeId,
			key: `scan:${codeId}:${visit.address}`,
			deviceType: browserAndDevice(visit.userAgent).deviceType,
			scannerType: scannerTypeOf(visit),
			city,
			state,
			country,
		}),
		!visit.viewerIsOwner && alertOwnerOnce(codeId, now),
		shown && auditProfileRead('scan', shown, visit),
	])
	return { alertOwner }
}

/** A read by anyone but the profile's own account: a responder, another account, a link preview. */
function auditProfileRead(action: 'scan' | 'scan-photo' | 'scan-dnr', shown: ShownProfile, visit: ScanVisit) {
	const role = scannerTypeOf(visit)
	if (role === 'owner') return null
	const { city, state, country } = geo(visit.trustedHeaders)
	return auditRead({
		action,
		profileId: shown.profileId,
		ownerUserId: shown.ownerId,
		actorUserId: visit.viewerId ?? null,
		role: role === 'link_preview' ? 'link_preview' : 'responder',
		ipAddress: visit.address,
		place: [city, state, country].filter(Boolean).join(', ') || null,
		detail: shown.codeName,
	})
}

/** The DNR document or photo a responder may open from the page (its key and owner): same rule as the page itself, and recorded the same way. */
export async function responderFileKey(token: string, kind: 'dnr' | 'photo', visit: Omit<ScanVisit, 'viewerIsOwner'>) {
	const view = await loadResponderView(token)
	if (view.state !== 'active') return null
	const key = kind === 'dnr' ? view.profile.dnrDocumentKey : view.profile.profilePictureKey
	if (key) {
		const shown = { profileId: view.profile.id, ownerId: view.ownerId, codeName: view.codeName }
		await auditProfileRead(kind === 'dnr' ? 'scan-dnr' : 'scan-photo', shown, { ...visit, viewerIsOwner: visit.viewerId === view.ownerId })
	}
	return key ? { key, ownerId: view.ownerId } : null
}
