import { DomainError } from '#app/utils/errors.ts'
import { and, asc, count, desc, eq, inArray, isNotNull, isNull, max, or, sql, type SQL } from 'drizzle-orm'
import { db, type Executor } from '#db/client.ts'
import { medicalProfiles, qrCodes, qrScans, users, type QrCustomization as StoredCustomization } from '#db/schema.ts'
import { ownedProfile, profileAccess } from '#app/domain/profiles/access.server.ts'
import { auditCaregiverRead } from '#app/domain/profiles/audit.server.ts'
import { QR_MESSAGES } from './messages.ts'
import { newScanToken, scanUrl } from './codes.server.ts'
import { DEFAULT_QR_COLOR, DEFAULT_TEXT_COLOR } from './palette.ts'
import type { QrCustomization } from './schemas.ts'
import { heavyDownload, heavyWork } from '#app/domain/heavy-work.server.ts'
import { renderFile } from '#app/domain/render/pool.server.ts'
import { renderQrSvg } from './render.server.ts'

export const DEFAULT_CUSTOMIZATION: StoredCustomization = { color: DEFAULT_QR_COLOR, textColor: DEFAULT_TEXT_COLOR, circular: true }

const codeColumns = {
	id: qrCodes.id,
	token: qrCodes.token,
	pin: qrCodes.pin,
	type: qrCodes.type,
	accessLevel: qrCodes.accessLevel,
	isActive: qrCodes.isActive,
	source: qrCodes.source,
	customization: qrCodes.customization,
	createdAt: qrCodes.createdAt,
	updatedAt: qrCodes.updatedAt,
	claimedAt: qrCodes.claimedAt,
	expiresAt: qrCodes.expiresAt,
	medicalProfileId: qrCodes.medicalProfileId,
	profileName: medicalProfiles.fullName,
	relationshipToUser: medicalProfiles.relationshipToUser,
}

/** The caller's codes (optionally one profile's), newest first, with their scan counts. */
export async function listCodes(userId: string, profileId?: number) {
	if (profileId) await ownedProfile(userId, profileId)
	const rows = await db
		.select({ ...codeColumns, scanCount: count(qrScans.id), lastScanAt: max(qrScans.scannedAt) })
		.from(qrCodes)
		.leftJoin(medicalProfiles, eq(medicalProfiles.id, qrCodes.medicalProfileId))
		.leftJoin(qrScans, eq(qrScans.qrCodeId, qrCodes.id))
		.where(and(eq(qrCodes.userId, userId), profileId ? eq(qrCodes.medicalProfileId, profileId) : undefined))
		.groupBy(qrCodes.id, medicalProfiles.id)
		.orderBy(desc(qrCodes.createdAt), desc(qrCodes.id))
	return rows.map((row) => ({ ...row, scanUrl: scanUrl(row.token), customization: row.customization ?? DEFAULT_CUSTOMIZATION }))
}
export type ListedCode = Awaited<ReturnType<typeof listCodes>>[number]

export async function getOwnedCode(userId: string, codeId: number) {
	const [code] = await db
		.select(codeColumns)
		.from(qrCodes)
		.leftJoin(medicalProfiles, eq(medicalProfiles.id, qrCodes.medicalProfileId))
		.where(and(eq(qrCodes.id, codeId), eq(qrCodes.userId, userId)))
	if (!code) throw new DomainError(404, 'QR code not found')
	return { ...code, scanUrl: scanUrl(code.token), customization: code.customization ?? DEFAULT_CUSTOMIZATION }
}
export type OwnedCode = Awaited<ReturnType<typeof getOwnedCode>>

async function isGrandfathered(userId: string) {
	const user = await db.query.users.findFirst({ columns: { isGrandfathered: true }, where: eq(users.id, userId) })
	return user?.isGrandfathered ?? false
}

/**
 * Legacy (grandfathered) accounts generate codes themselves: the first call for a profile creates its emergency
 * code, later calls update that code's look. Everyone else gets codes by claiming a printed sticker.
 */
export async function generateOrUpdateCode(userId: string, profileId: number, customization: QrCustomization) {
	const look = toStored(customization)
	const existing = await profileEmergencyCode(userId, profileId)
	if (existing) {
		await db.update(qrCodes).set({ customization: look }).where(eq(qrCodes.id, existing.id))
		return { code: await getOwnedCode(userId, existing.id), isUpdated: true }
	}
	if (!(await isGrandfathered(userId)))
		throw new DomainError(403, 'Self-generated QR codes are for legacy accounts. Claim a sticker with its PIN or request a free QR code.')
	const [created] = await db
		.insert(qrCodes)
		.values({
			token: newScanToken(),
			userId,
			medicalProfileId: profileId,
			source: 'self',
			type: 'emergency',
			accessLevel: 'full',
			customization: look,
			claimedAt: new Date(),
		})
		.returning({ id: qrCodes.id })
	return { code: await getOwnedCode(userId, created!.id), isUpdated: false }
}

/** The code Generate updates: the profile's first emergency code, if it has one. */
async function profileEmergencyCode(userId: string, profileId: number) {
	await ownedProfile(userId, profileId)
	const [code] = await db
		.select({ id: qrCodes.id, token: qrCodes.token })
		.from(qrCodes)
		.where(and(eq(qrCodes.userId, userId), eq(qrCodes.medicalProfileId, profileId), eq(qrCodes.type, 'emergency')))
		.orderBy(asc(qrCodes.id))
		.limit(1)
	return code
}

/**
 * A new code's token is drawn only when the code is created, so the URL it will encode is unknown before then. The
 * preview encodes this placeholder instead: as long as a real token, so the symbol has the same size and density.
 */
export const PREVIEW_TOKEN = 'preview-only-not-a-token'

/** What Generate would produce for the profile, without writing anything: its existing code's URL, else the placeholder. */
export async function previewCodeSvg(userId: string, profileId: number | undefined, customization: QrCustomization) {
	const existing = profileId ? await profileEmergencyCode(userId, profileId) : undefined
	return renderQrSvg({ ...customization, data: scanUrl(existing?.token ?? PREVIEW_TOKEN) })
}

/** Any owned code's look (colours, shape, text) may change; the scan URL never does. */
export async function customizeCode(userId: string, codeId: number, customization: QrCustomization) {
	await getOwnedCode(userId, codeId)
	await db
		.update(qrCodes)
		.set({ customization: toStored(customization) })
		.where(and(eq(qrCodes.id, codeId), eq(qrCodes.userId, userId)))
	return getOwnedCode(userId, codeId)
}

/** Relinks an owned code to another of the owner's profiles; a code that had lost its profile is turned back on. */
export async function assignCodeToProfile(userId: string, codeId: number, profileId: number) {
	const [code] = await Promise.all([getOwnedCode(userId, codeId), ownedProfile(userId, profileId)])
	await db
		.update(qrCodes)
		.set({ medicalProfileId: profileId, ...(code.medicalProfileId ? {} : { isActive: true }) })
		.where(and(eq(qrCodes.id, codeId), eq(qrCodes.userId, userId)))
}

export async function toggleCode(userId: string, codeId: number) {
	// One statement, so a code unlinked or released meanwhile is never turned on, and a vanished code is a 404.
	const [row] = await db
		.update(qrCodes)
		.set({ isActive: sql`not ${qrCodes.isActive}` })
		.where(and(eq(qrCodes.id, codeId), eq(qrCodes.userId, userId), or(eq(qrCodes.isActive, true), isNotNull(qrCodes.medicalProfileId))))
		.returning({ isActive: qrCodes.isActive })
	if (row) return row.isActive
	await getOwnedCode(userId, codeId)
	throw new DomainError(400, QR_MESSAGES.needsProfile)
}

/**
 * A self-generated code is deleted with its scan history. A printed sticker still exists in someone's wallet: it
 * returns to unclaimed, so the PIN printed on it can claim it again and a scan shows how to activate it.
 */
export async function deleteCode(userId: string, codeId: number) {
	await getOwnedCode(userId, codeId)
	await db.transaction(async (tx) => {
		const owned = and(eq(qrCodes.id, codeId), eq(qrCodes.userId, userId))
		await tx.delete(qrCodes).where(and(owned, isNull(qrCodes.pin)))
		await releaseStickers(tx, owned!)
	})
}

/**
 * Printed stickers matching `where` go back to unclaimed: no owner, profile, look, alert time or scan history. Codes
 * without a PIN (self-generated) are left to the caller.
 */
export async function releaseStickers(tx: Executor, where: SQL) {
	const stickers = and(where, isNotNull(qrCodes.pin))!
	await tx.delete(qrScans).where(inArray(qrScans.qrCodeId, tx.select({ id: qrCodes.id }).from(qrCodes).where(stickers)))
	await tx
		.update(qrCodes)
		.set({ userId: null, medicalProfileId: null, customization: null, isActive: true, claimedAt: null, scanAlertSentAt: null })
		.where(stickers)
}

/**
 * An owned code's latest scans with what the owner's admin area records of each: who scanned (responder, the owner, a
 * link preview), whether it was an emergency access, and the medical facility a helping responder named.
 */
/**
 * A code's latest scans: for its owner, and for an editor of the profile it shows (whose read is recorded); to anyone
 * else, the code is not found.
 */
export async function scanHistory(userId: string, codeId: number, limit = 50) {
	const [code] = await db
		.select({ userId: qrCodes.userId, profileId: qrCodes.medicalProfileId })
		.from(qrCodes)
		.where(eq(qrCodes.id, codeId))
	if (!code || (code.userId !== userId && !(await editsProfile(userId, code.profileId, `scan history of QR code #${codeId}`))))
		throw new DomainError(404, 'QR code not found')
	return scansWhere(eq(qrScans.qrCodeId, codeId), limit)
}

/** Whether `userId` edits the profile as a caregiver (its scan history is theirs to see); the read is recorded. */
async function editsProfile(userId: string, profileId: number | null, what: string) {
	if (!profileId) return false
	const access = await profileAccess(userId, profileId, 'edit').catch(() => null)
	if (access) await auditCaregiverRead(access, what)
	return Boolean(access)
}

/** The latest scans of every code that shows the profile: its owner's and its editors' (profileAccess 'edit'). */
export async function profileScanHistory(userId: string, profileId: number, limit = 20) {
	const access = await profileAccess(userId, profileId, 'edit')
	await auditCaregiverRead(access, 'scan history')
	const codes = db
		.select({ id: qrCodes.id })
		.from(qrCodes)
		.where(and(eq(qrCodes.medicalProfileId, profileId), eq(qrCodes.userId, access.ownerId)))
	return scansWhere(inArray(qrScans.qrCodeId, codes), limit)
}

function scansWhere(condition: SQL, limit: number) {
	return db
		.select({
			id: qrScans.id,
			scannedAt: qrScans.scannedAt,
			scannerType: qrScans.scannerType,
			deviceType: qrScans.deviceType,
			city: qrScans.city,
			state: qrScans.state,
			country: qrScans.country,
			isEmergencyAccess: qrScans.isEmergencyAccess,
			medicalFacility: qrScans.medicalFacility,
		})
		.from(qrScans)
		.where(condition)
		.orderBy(desc(qrScans.scannedAt), desc(qrScans.id))
		.limit(limit)
}

function toStored(c: QrCustomization): StoredCustomization {
	return {
		color: c.color,
		textColor: c.textColor,
		circular: c.circular,
		customText: c.customText,
		transparentBackground: c.transparentBackground,
	}
}

export type Shape = 'circular' | 'square'

/**
 * The image of an owned code; the shape may be overridden (a circular download of a square code). A PNG is drawn in
 * the heavy-work pool; a download also counts in the account's heavy tier.
 */
export async function codeImage(userId: string, codeId: number, format: 'png' | 'svg', shape?: Shape, width = 400, download = false) {
	const code = await getOwnedCode(userId, codeId)
	const look = code.customization
	const options = { ...look, circular: shape ? shape === 'circular' : look.circular, data: code.scanUrl, width }
	if (format === 'svg') return { code, body: renderQrSvg(options) }
	const draw = () => renderFile({ kind: 'qr-png', options })
	return { code, body: await (download ? heavyDownload : heavyWork)(userId, draw) }
}
