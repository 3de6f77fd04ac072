import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { db } from '#db/client.ts'
import * as s from '#db/schema.ts'
import { createCode, createUser, sessionCookie } from '#tests/factories.ts'

describe('seed', () => {
	test('the shop catalogue with the spec prices, the request-page products and the three consent texts', async () => {
		const shop = await db.query.products.findMany({ where: eq(s.products.inShop, true), orderBy: s.products.sortOrder })
		expect(shop.map((p) => p.priceCents)).toEqual([500, 800, 1000, 1500])
		const request = await db.query.products.findMany({ where: eq(s.products.onRequestPage, true) })
		expect(request.map((p) => p.id).sort()).toEqual([1, 4, 5])
		expect(request.find((p) => p.id === 5)?.name).toBe('911 Emergency Notification Stickers')
		const texts = await db.query.consentTexts.findMany()
		expect(Object.fromEntries(texts.map((t) => [t.consentType, t.title]))).toEqual({
			hipaa: 'HIPAA-Style Medical Information Consent',
			terms: 'Terms of Service Agreement',
			emergency_disclaimer: 'Emergency Medical Disclaimer',
		})
		expect(await db.query.users.findFirst({ where: eq(s.users.email, 'demo@hitmehelpers.local') })).toBeUndefined()
	})
})

describe('deleting an account', () => {
	test('removes the person and everything personal; keeps orders and donations without the link; frees the code link', async () => {
		const user = await createUser()
		await sessionCookie(user.id)
		const [profile] = await db.insert(s.medicalProfiles).values({ userId: user.id, fullName: 'Gone Soon' }).returning()
		await db.insert(s.allergies).values({ medicalProfileId: profile!.id, allergen: 'Penicillin', severity: 'Severe' })
		await db.insert(s.medications).values({ medicalProfileId: profile!.id, name: 'Warfarin' })
		await db.insert(s.consents).values({ userId: user.id, consentType: 'terms', version: 1, agreed: true })
		const code = await createCode()
		await db.update(s.qrCodes).set({ userId: user.id, medicalProfileId: profile!.id }).where(eq(s.qrCodes.id, code.id))
		await db.insert(s.orders).values({ id: `o-${user.id}`, confirmationNumber: `HMH-${user.id.slice(0, 8).toUpperCase()}`, userId: user.id, customerEmail: user.email, subtotalCents: 0, totalCents: 0 })
		await db.insert(s.donations).values({ userId: user.id, amountCents: 500, tier: 'supporter' })

		await db.delete(s.users).where(eq(s.users.id, user.id))

		expect(await db.select().from(s.sessions).where(eq(s.sessions.userId, user.id))).toHaveLength(0)
		expect(await db.select().from(s.medicalProfiles).where(eq(s.medicalProfiles.userId, user.id))).toHaveLength(0)
		expect(await db.select().from(s.allergies).where(eq(s.allergies.medicalProfileId, profile!.id))).toHaveLength(0)
		expect(await db.select().from(s.consents).where(eq(s.consents.userId, user.id))).toHaveLength(0)
		// Deleted behind the app, the code loses its owner (and so shows the unclaimed page); deleteAccount clears the rest.
		const codeRow = await db.query.qrCodes.findFirst({ where: eq(s.qrCodes.id, code.id) })
		expect(codeRow).toMatchObject({ userId: null })
		expect((await db.query.orders.findFirst({ where: eq(s.orders.id, `o-${user.id}`) }))?.userId).toBeNull()
	})
})
