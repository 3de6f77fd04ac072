import { and, desc, eq, gt, isNotNull, isNull, or, sql } from 'drizzle-orm'
import { db } from '#db/client.ts'
import { qrCodes } from '#db/schema.ts'
import { DomainError } from '#app/utils/errors.ts'
import { heavyDownload } from '#app/domain/heavy-work.server.ts'
import { renderFile } from '#app/domain/render/pool.server.ts'
import { getProfileDetail, type ProfileDetail } from '#app/domain/profiles/profiles.server.ts'
import { scanUrl } from '#app/domain/qr/codes.server.ts'
import { smallPicture } from '#app/domain/uploads/small-pictures.server.ts'
import { cardFacts, sheetFacts } from './facts.ts'
import { NO_ACTIVE_CODE, SCANNING_OFF } from './options.ts'
import type { FridgeSheetQuery, LockScreenQuery, WalletCardQuery } from './schemas.ts'

/** A code a card may carry: the owner's, linked to the profile, on, and not past its expiry. */
const usable = (userId: string) =>
	and(eq(qrCodes.userId, userId), eq(qrCodes.isActive, true), or(isNull(qrCodes.expiresAt), gt(qrCodes.expiresAt, sql`now()`)))

/** The profiles of the person that have a code a card may carry: the others are offered a link to the QR Codes tab instead. */
export async function profilesWithCardCode(userId: string) {
	const rows = await db
		.selectDistinct({ profileId: qrCodes.medicalProfileId })
		.from(qrCodes)
		.where(and(usable(userId), isNotNull(qrCodes.medicalProfileId)))
	return rows.map((r) => r.profileId!)
}

/** The profile (the person's own, else 404) and the code its card carries: the one asked for, else the newest usable one. */
async function cardSource(userId: string, profileId: number, codeId: number | undefined) {
	const [profile, codes] = await Promise.all([
		getProfileDetail(userId, profileId),
		db
			.select({ id: qrCodes.id, token: qrCodes.token })
			.from(qrCodes)
			.where(and(usable(userId), eq(qrCodes.medicalProfileId, profileId)))
			.orderBy(desc(qrCodes.createdAt), desc(qrCodes.id)),
	])
	if (!profile) throw new DomainError(404, 'Profile not found')
	if (!profile.isScannable) throw new DomainError(409, SCANNING_OFF)
	const code = codeId === undefined ? codes[0] : codes.find((c) => c.id === codeId)
	if (!code) throw codeId === undefined ? new DomainError(409, NO_ACTIVE_CODE) : new DomainError(404, 'QR code not found')
	return { profile, scanUrl: scanUrl(code.token) }
}

/** The wallet card PDF, made from the profile as it is now. */
export function walletCard(userId: string, profileId: number, query: WalletCardQuery) {
	return heavyDownload(userId, async () => {
		const { profile, scanUrl } = await cardSource(userId, profileId, query.code)
		const photo = profile.profilePictureKey ? await cardPhoto(userId, profile.profilePictureKey) : null
		const body = await renderFile({ kind: 'wallet-card', input: { facts: cardFacts(profile, query.lang), scanUrl, photo } })
		return { body, fileName: `${fileStem('wallet-card', profile)}-${query.lang}.pdf` }
	})
}

/** The fridge sheet PDF, made from the profile as it is now: the same code and photo as the wallet card. */
export function fridgeSheet(userId: string, profileId: number, query: FridgeSheetQuery) {
	return heavyDownload(userId, async () => {
		const { profile, scanUrl } = await cardSource(userId, profileId, query.code)
		const photo = profile.profilePictureKey ? await cardPhoto(userId, profile.profilePictureKey) : null
		const facts = sheetFacts(profile, query.lang)
		const body = await renderFile({ kind: 'fridge-sheet', input: { facts, scanUrl, photo, paper: query.paper } })
		return { body, fileName: `${fileStem('fridge-sheet', profile)}-${query.lang}-${query.paper}.pdf` }
	})
}

/** The lock-screen PNG, made from the profile as it is now. */
export function lockScreen(userId: string, profileId: number, query: LockScreenQuery) {
	return heavyDownload(userId, async () => {
		const { profile, scanUrl } = await cardSource(userId, profileId, query.code)
		const facts = cardFacts(profile, query.lang)
		const body = await renderFile({ kind: 'lock-screen', input: { facts, scanUrl, width: query.width, height: query.height } })
		return { body, fileName: `${fileStem('lock-screen', profile)}-${query.width}x${query.height}.png` }
	})
}

/** The picture's small JPEG copy (200 px, on white): all a card's 32 × 40 pt frame or the sheet's 84 × 105 pt one needs, made at upload. */
async function cardPhoto(userId: string, key: string) {
	try {
		return (await smallPicture(userId, key, 'jpeg'))?.body ?? null
	} catch (error) {
		// The card is still worth having without its photo; a full pool, though, is the download's answer.
		if (error instanceof DomainError) throw error
		return null
	}
}

/** Letters and digits of the name only (no accent, space or quote can break the header); else the profile's number. */
function fileStem(kind: string, profile: Pick<ProfileDetail, 'id' | 'fullName' | 'firstName' | 'lastName'>) {
	const name = profile.fullName ?? [profile.firstName, profile.lastName].filter(Boolean).join(' ')
	const slug = name
		.normalize('NFKD')
		.replace(/[\u0300-\u036f]/g, '')
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-+|-+$/g, '')
		.slice(0, 40)
		.replace(/-+$/, '')
	return `hmh-${kind}-${slug || `profile-${profile.id}`}`
}
