import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { describe, expect, test } from 'vitest'
import { db } from '#db/client.ts'
import * as s from '#db/schema.ts'
import { claimCode } from '#app/domain/claims/claims.server.ts'
import { DomainError } from '#app/utils/errors.ts'
import { uploadPicture } from '#app/domain/profiles/files.server.ts'
import { addRow } from '#app/domain/profiles/sections.server.ts'
import { AllergySchema } from '#app/domain/profiles/schemas.ts'
import { scanUrl } from '#app/domain/qr/codes.server.ts'
import { readPdf } from '#tests/cards.ts'
import { claimant, createCode, createUser } from '#tests/factories.ts'
import { fullProfile } from '#tests/profiles.ts'
import { decodeQr } from '#tests/zbar.ts'
import { decodePdfRegions } from '#tests/zbar-all.ts'
import { age } from '#app/domain/responder/dates.ts'
import { fridgeSheet, lockScreen, profilesWithCardCode, walletCard } from './cards.server.ts'
import { sheetQrBox } from './fridge-sheet.server.ts'
import { NO_ACTIVE_CODE, SCANNING_OFF } from './options.ts'

/** A new sticker claimed onto the profile: created after every code before it. */
async function linkAnotherCode(userId: string, profileId: number) {
	const code = await createCode()
	const claimed = await claimCode(claimant(userId), code.pin, { profileId })
	return { id: claimed.qrCodeId, url: scanUrl(claimed.token) }
}

/** The scan URL the lock-screen image carries, read by zbar. */
async function carried(userId: string, profileId: number, code?: number) {
	const image = await lockScreen(userId, profileId, { width: 1080, height: 2400, lang: 'en', code })
	return decodeQr(Buffer.from(image.body))
}

const refusal = (promise: Promise<unknown>) =>
	promise.then(
		() => null,
		(error: unknown) => (error instanceof DomainError ? { status: error.status, message: error.message } : error),
	)

describe('walletCard', () => {
	test('a stored profile as it is now: its facts, its photo (stored sealed), a safe file name', async () => {
		const { user, profile } = await fullProfile()
		const photo = await sharp({ create: { width: 300, height: 400, channels: 3, background: '#884422' } })
			.png()
			.toBuffer()
		await uploadPicture(user.id, profile.id, new File([Uint8Array.from(photo)], 'me.png', { type: 'image/png' }))
		const card = await walletCard(user.id, profile.id, { lang: 'en' })
		expect(card.fileName).toBe('hmh-wallet-card-maria-santos-en.pdf')
		const read = await readPdf(card.body)
		for (const words of [
			'Maria Santos',
			'DNR: Do Not Resuscitate',
			'Penicillin (Severe): Anaphylaxis',
			'Warfarin 5 mg, daily',
			'Atrial fibrillation (Chronic)',
			'Luis Santos (Son) +1 (555) 010-0200',
			'Blood type: AB-',
			'November 1, 2026',
		])
			expect(read.text).toContain(words)
		// The picture's small copy, made at upload: what the frame needs, not the stored 300 × 400.
		expect(read.images).toHaveLength(1)
		expect(read.images[0]).toMatch(/\b150\s+200\b.*\bjpeg\b/)

		// Made again on every download: an allergy added since is on the next card.
		await addRow(user.id, 'allergies', profile.id, AllergySchema.parse({ allergen: 'Bee stings', severity: 'Moderate' }))
		expect((await readPdf((await walletCard(user.id, profile.id, { lang: 'en' })).body)).text).toContain('Bee stings (Moderate)')
	})

	test('the last-confirmed date is the creation date until the owner confirms', async () => {
		const { user, profile } = await fullProfile()
		const createdAt = new Date('2025-07-04T15:00:00Z')
		await db.update(s.medicalProfiles).set({ confirmedAt: null, createdAt }).where(eq(s.medicalProfiles.id, profile.id))
		const read = await readPdf((await walletCard(user.id, profile.id, { lang: 'fr' })).body)
		expect(read.text).toContain('Informations confirmées par leur titulaire le 4 juillet 2025')
	})

	test('another person’s profile, or an unknown one, is not found', async () => {
		const { profile } = await fullProfile()
		const stranger = await createUser()
		expect(await refusal(walletCard(stranger.id, profile.id, { lang: 'en' }))).toEqual({ status: 404, message: 'Profile not found' })
		expect(await refusal(fridgeSheet(stranger.id, profile.id, { lang: 'en', paper: 'letter' }))).toEqual({
			status: 404,
			message: 'Profile not found',
		})
		expect(await refusal(lockScreen(stranger.id, 2_000_000_000, { width: 1170, height: 2532, lang: 'en' }))).toEqual({
			status: 404,
			message: 'Profile not found',
		})
	})
})

describe('fridgeSheet', () => {
	test('a stored profile as it is now: all the responder page shows, its photo, its code, a safe file name', async () => {
		const { user, profile, code } = await fullProfile()
		const photo = await sharp({ create: { width: 300, height: 400, channels: 3, background: '#884422' } })
			.png()
			.toBuffer()
		await uploadPicture(user.id, profile.id, new File([Uint8Array.from(photo)], 'me.png', { type: 'image/png' }))
		const sheet = await fridgeSheet(user.id, profile.id, { lang: 'en', paper: 'letter' })
		expect(sheet.fileName).toBe('hmh-fridge-sheet-maria-santos-en-letter.pdf')
		const read = await readPdf(sheet.body)
		expect(read.pages).toBe(1)
		expect(read.pageSize).toMatch(/\(letter\)/)
		for (const words of [
			'Maria Santos',
			`Age ${age('1950-06-15')} · Born June 15, 1950`,
			'Blood type: AB-',
			'DNR: Do Not Resuscitate',
			'Original kept: On the refrigerator',
			'Penicillin (Severe): Anaphylaxis',
			'Warfarin 5 mg, daily',
			'Atrial fibrillation (Chronic)',
			'Luis Santos (Son) +1 (555) 010-0200',
			'Height: 5 ft 4 in · Weight: 140 lb',
			'Distinguishing marks: Scar on left knee',
			'Medicare · Policy 1EG4-TE5-MK73',
			'Hard of hearing <speak up>',
			'Information last confirmed by its owner on November 1, 2026',
			'Vial of Life inside: see the fridge',
		])
			expect(read.text).toContain(words)
		expect(read.images).toHaveLength(1)
		const box = sheetQrBox('letter')
		const mm = (points: number) => (points * 25.4) / 72
		const region = { page: 1, xMm: mm(box.left - 12), yMm: mm(box.top - 12), widthMm: mm(box.side + 24), heightMm: mm(box.side + 24) }
		expect(await decodePdfRegions(sheet.body, [region], { dpi: 200 })).toEqual([[scanUrl(code.token)]])

		const a4 = await fridgeSheet(user.id, profile.id, { lang: 'es', paper: 'a4' })
		expect(a4.fileName).toBe('hmh-fridge-sheet-maria-santos-es-a4.pdf')
		const readA4 = await readPdf(a4.body)
		expect(readA4.pageSize).toMatch(/\(A4\)/)
		expect(readA4.text).toContain('Vial of Life adentro: vea el refrigerador')
	})
})

describe('which QR code a card carries', () => {
	test('the newest active unexpired code of the profile, or the one asked for; never an off, expired or other code', async () => {
		const { user, profile, code: first } = await fullProfile()
		const firstUrl = scanUrl(first.token)
		expect(await carried(user.id, profile.id)).toBe(firstUrl)

		const second = await linkAnotherCode(user.id, profile.id)
		expect(await carried(user.id, profile.id)).toBe(second.url)
		const firstId = (await db.select({ id: s.qrCodes.id }).from(s.qrCodes).where(eq(s.qrCodes.token, first.token)))[0]!.id
		expect(await carried(user.id, profile.id, firstId)).toBe(firstUrl)

		await db.update(s.qrCodes).set({ isActive: false }).where(eq(s.qrCodes.id, second.id))
		expect(await carried(user.id, profile.id)).toBe(firstUrl)
		expect(await refusal(carried(user.id, profile.id, second.id))).toEqual({ status: 404, message: 'QR code not found' })

		const third = await linkAnotherCode(user.id, profile.id)
		await db
			.update(s.qrCodes)
			.set({ expiresAt: new Date(Date.now() - 60_000) })
			.where(eq(s.qrCodes.id, third.id))
		expect(await carried(user.id, profile.id)).toBe(firstUrl)

		// A code of the same person's other profile, and another person's code, are not this profile's.
		const other = await fullProfile()
		expect(await refusal(carried(user.id, profile.id, (await codeIds(other.user.id))[0]))).toEqual({
			status: 404,
			message: 'QR code not found',
		})
		const [family] = await db
			.insert(s.medicalProfiles)
			.values({ userId: user.id, fullName: 'Kid Santos', relationshipToUser: 'child' })
			.returning()
		const kids = await linkAnotherCode(user.id, family!.id)
		expect(await refusal(carried(user.id, profile.id, kids.id))).toEqual({ status: 404, message: 'QR code not found' })
		expect(await carried(user.id, family!.id)).toBe(kids.url)
	})

	test('a profile without an active code: 409 with what to do', async () => {
		const { user, profile } = await fullProfile()
		await db.update(s.qrCodes).set({ isActive: false }).where(eq(s.qrCodes.userId, user.id))
		expect(await refusal(walletCard(user.id, profile.id, { lang: 'en' }))).toEqual({ status: 409, message: NO_ACTIVE_CODE })
		expect(await refusal(fridgeSheet(user.id, profile.id, { lang: 'en', paper: 'a4' }))).toEqual({ status: 409, message: NO_ACTIVE_CODE })
		expect(await refusal(carried(user.id, profile.id))).toEqual({ status: 409, message: NO_ACTIVE_CODE })
	})

	test('a profile with scanning off: 409, since its code would open the neutral page', async () => {
		const { user, profile } = await fullProfile()
		await db.update(s.medicalProfiles).set({ isScannable: false }).where(eq(s.medicalProfiles.id, profile.id))
		expect(await refusal(walletCard(user.id, profile.id, { lang: 'en' }))).toEqual({ status: 409, message: SCANNING_OFF })
		expect(await refusal(fridgeSheet(user.id, profile.id, { lang: 'en', paper: 'a4' }))).toEqual({ status: 409, message: SCANNING_OFF })
		expect(await refusal(carried(user.id, profile.id))).toEqual({ status: 409, message: SCANNING_OFF })
	})

	test('profilesWithCardCode lists the profiles with a usable code, and only the person’s own', async () => {
		const { user, profile } = await fullProfile()
		const [bare] = await db
			.insert(s.medicalProfiles)
			.values({ userId: user.id, fullName: 'No Code', relationshipToUser: 'parent' })
			.returning()
		const [expired] = await db
			.insert(s.medicalProfiles)
			.values({ userId: user.id, fullName: 'Expired Code', relationshipToUser: 'spouse' })
			.returning()
		const old = await linkAnotherCode(user.id, expired!.id)
		await db
			.update(s.qrCodes)
			.set({ expiresAt: new Date(Date.now() - 1000) })
			.where(eq(s.qrCodes.id, old.id))
		await fullProfile()
		expect(await profilesWithCardCode(user.id)).toEqual([profile.id])
		expect(bare).toBeDefined()
	})
})

const codeIds = async (userId: string) =>
	(await db.select({ id: s.qrCodes.id }).from(s.qrCodes).where(eq(s.qrCodes.userId, userId))).map((r) => r.id)
