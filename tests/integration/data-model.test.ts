import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { db } from '#db/client.ts'
import * as s from '#db/schema.ts'
import { CONDITION_STATUSES, DNR_STATUSES } from '#app/domain/profiles/schemas.ts'
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
		// createUser agreed to every form: this is a refusal on record, which goes with the account too.
		await db.insert(s.consents).values({ userId: user.id, consentType: 'terms', version: 1, agreed: false })
		const code = await createCode()
		await db.update(s.qrCodes).set({ userId: user.id, medicalProfileId: profile!.id }).where(eq(s.qrCodes.id, code.id))
		await db.insert(s.orders).values({
			id: `o-${user.id}`,
			confirmationNumber: `HMH-${user.id.slice(0, 8).toUpperCase()}`,
			userId: user.id,
			customerEmail: user.email,
			subtotalCents: 0,
			totalCents: 0,
		})
		const [donation] = await db.insert(s.donations).values({ userId: user.id, amountCents: 500, tier: 'supporter' }).returning()

		await db.delete(s.users).where(eq(s.users.id, user.id))

		expect(await db.select().from(s.sessions).where(eq(s.sessions.userId, user.id))).toHaveLength(0)
		expect(await db.select().from(s.medicalProfiles).where(eq(s.medicalProfiles.userId, user.id))).toHaveLength(0)
		expect(await db.select().from(s.allergies).where(eq(s.allergies.medicalProfileId, profile!.id))).toHaveLength(0)
		expect(await db.select().from(s.consents).where(eq(s.consents.userId, user.id))).toHaveLength(0)
		// Deleted behind the app, the code loses its owner (and so shows the unclaimed page); deleteAccount clears the rest.
		const codeRow = await db.query.qrCodes.findFirst({ where: eq(s.qrCodes.id, code.id) })
		expect(codeRow).toMatchObject({ userId: null })
		expect((await db.query.orders.findFirst({ where: eq(s.orders.id, `o-${user.id}`) }))?.userId).toBeNull()
		expect(await db.query.donations.findFirst({ where: eq(s.donations.id, donation!.id) })).toMatchObject({
			userId: null,
			amountCents: 500,
			tier: 'supporter',
		})
	})
})

/** What PostgreSQL said when it refused a write (it names the constraint, on both drivers), or 'accepted'. */
async function refusal(write: PromiseLike<unknown>) {
	try {
		await write
		return 'accepted'
	} catch (error) {
		const e = error as { message: string; cause?: { message?: string } }
		return e.cause?.message ?? e.message
	}
}

let orderCount = 0
function orderValues(userId: string | null, values: Partial<typeof s.orders.$inferInsert> = {}) {
	const id = `o-${randomUUID()}`
	return {
		id,
		confirmationNumber: `HMH-T${(++orderCount).toString(36).toUpperCase()}${randomUUID().slice(0, 8)}`,
		userId,
		customerEmail: 'x@example.com',
		subtotalCents: 500,
		totalCents: 0,
		...values,
	}
}

describe('the database refuses', () => {
	test('a negative price or amount', async () => {
		const user = await createUser()
		expect(
			await refusal(
				db.insert(s.products).values({ id: 900_000 + orderCount++, name: 'Bad', description: 'Bad', category: 'sticker', priceCents: -1 }),
			),
		).toContain('products_price_cents_check')
		for (const column of ['subtotalCents', 'discountCents', 'shippingCents', 'totalCents'] as const) {
			expect(await refusal(db.insert(s.orders).values(orderValues(user.id, { [column]: -1 }))), column).toMatch(/orders_\w+_cents_check/)
		}
		expect(await refusal(db.insert(s.donations).values({ userId: user.id, amountCents: -500, tier: 'custom' }))).toContain(
			'donations_amount_cents_check',
		)
		const [order] = await db.insert(s.orders).values(orderValues(user.id)).returning()
		expect(await refusal(db.insert(s.orderItems).values({ orderId: order!.id, name: 'Card', quantity: 1, unitPriceCents: -1 }))).toContain(
			'order_items_unit_price_cents_check',
		)
	})

	test('a percentage discount over 100 or a negative discount', async () => {
		const code = () => `T${randomUUID().slice(0, 8)}`
		expect(
			await refusal(db.insert(s.discounts).values({ code: code(), type: 'percentage', value: 101, description: 'Too much' })),
		).toContain('discounts_value_check')
		expect(await refusal(db.insert(s.discounts).values({ code: code(), type: 'fixed', value: -100, description: 'Negative' }))).toContain(
			'discounts_value_check',
		)
		expect(await refusal(db.insert(s.discounts).values({ code: code(), type: 'percentage', value: 100, description: 'All of it' }))).toBe(
			'accepted',
		)
		expect(await refusal(db.insert(s.discounts).values({ code: code(), type: 'fixed', value: 2500, description: '$25 off' }))).toBe(
			'accepted',
		)
	})

	test('a zero quantity', async () => {
		const user = await createUser()
		const [order] = await db.insert(s.orders).values(orderValues(user.id)).returning()
		expect(await refusal(db.insert(s.orderItems).values({ orderId: order!.id, name: 'Card', quantity: 0, unitPriceCents: 500 }))).toContain(
			'order_items_quantity_check',
		)
		const request = {
			fullName: 'A',
			email: user.email,
			streetAddress: '1 Main St',
			city: 'Town',
			state: 'CA',
			postalCode: '90001',
			country: 'US',
		}
		expect(await refusal(db.insert(s.qrRequests).values({ ...request, quantity: 0 }))).toContain('qr_requests_quantity_check')
		expect(await refusal(db.insert(s.qrRequests).values({ ...request, quantity: 1 }))).toBe('accepted')
	})

	test('money that was not received: a free order charged, a refund above the charge, a charge that is not the gift', async () => {
		const user = await createUser()
		const paid = { isFree: false, paymentStatus: 'completed' as const }
		expect(await refusal(db.insert(s.orders).values(orderValues(user.id, { chargedCents: 500 })))).toContain('orders_free_check')
		expect(await refusal(db.insert(s.orders).values(orderValues(user.id, { isFree: false })))).toContain('orders_free_check')
		expect(await refusal(db.insert(s.orders).values(orderValues(user.id, { ...paid, chargedCents: 500, refundedCents: 600 })))).toContain(
			'orders_refunded_cents_check',
		)
		expect(await refusal(db.insert(s.orders).values(orderValues(user.id, { ...paid, chargedCents: 500, refundedCents: 500 })))).toBe(
			'accepted',
		)
		const gift = { amountCents: 1500, feeCents: 75, tier: 'advocate' }
		expect(await refusal(db.insert(s.donations).values({ ...gift, status: 'pending', chargedCents: 1575 }))).toContain(
			'donations_charged_check',
		)
		expect(await refusal(db.insert(s.donations).values({ ...gift, status: 'succeeded', chargedCents: 1500 }))).toContain(
			'donations_charged_check',
		)
		expect(
			await refusal(db.insert(s.donations).values({ ...gift, status: 'succeeded', chargedCents: 1575, refundedCents: 1576 })),
		).toContain('donations_refunded_cents_check')
		expect(await refusal(db.insert(s.donations).values({ ...gift, status: 'refunded', chargedCents: 1575, refundedCents: 1575 }))).toBe(
			'accepted',
		)
	})

	test('an unknown status', async () => {
		const user = await createUser()
		const unknown = 'lost' as never
		expect(await refusal(db.insert(s.orders).values(orderValues(user.id, { fulfillmentStatus: unknown })))).toContain(
			'orders_fulfillment_status_check',
		)
		expect(await refusal(db.insert(s.orders).values(orderValues(user.id, { paymentStatus: unknown, isFree: false })))).toContain(
			'orders_payment_status_check',
		)
		expect(await refusal(db.insert(s.donations).values({ amountCents: 500, tier: 'supporter', status: unknown }))).toContain(
			'donations_status_check',
		)
		expect(await refusal(db.insert(s.subscriptions).values({ userId: user.id, plan: 'basic', status: unknown }))).toContain(
			'subscriptions_status_check',
		)
		expect(
			await refusal(
				db.insert(s.qrRequests).values({
					fullName: 'A',
					email: user.email,
					quantity: 1,
					streetAddress: '1 Main St',
					city: 'Town',
					state: 'CA',
					postalCode: '90001',
					country: 'US',
					requestStatus: unknown,
				}),
			),
		).toContain('qr_requests_request_status_check')
		expect(
			await refusal(
				db.insert(s.emails).values({
					toAddress: user.email,
					emailType: 'order-confirmation',
					subject: 'S',
					textBody: 'T',
					trackingId: randomUUID(),
					status: unknown,
				}),
			),
		).toContain('emails_status_check')
		const [profile] = await db.insert(s.medicalProfiles).values({ userId: user.id }).returning()
		expect(
			await refusal(db.insert(s.medicalConditions).values({ medicalProfileId: profile!.id, condition: 'Asthma', status: unknown })),
		).toContain('medical_conditions_status_check')
		expect(await refusal(db.update(s.medicalProfiles).set({ dnrStatus: unknown }).where(eq(s.medicalProfiles.id, profile!.id)))).toContain(
			'medical_profiles_dnr_status_check',
		)
		// Every status the app writes or reads is allowed, and a status update moves an order along.
		const [order] = await db.insert(s.orders).values(orderValues(user.id)).returning()
		for (const status of s.FULFILLMENT_STATUSES) {
			expect(await refusal(db.update(s.orders).set({ fulfillmentStatus: status }).where(eq(s.orders.id, order!.id))), status).toBe(
				'accepted',
			)
		}
	})

	test('a fixed-value column holding a value the app never writes; every value it does write is accepted', async () => {
		const user = await createUser()
		const code = await createCode()
		const setCode = (values: Partial<typeof s.qrCodes.$inferInsert>) => db.update(s.qrCodes).set(values).where(eq(s.qrCodes.id, code.id))
		expect(await refusal(setCode({ type: 'medical' }))).toContain('qr_codes_type_check')
		expect(await refusal(setCode({ accessLevel: 'basic' }))).toContain('qr_codes_access_level_check')
		expect(await refusal(setCode({ source: 'import' }))).toContain('qr_codes_source_check')
		for (const source of s.QR_CODE_SOURCES) expect(await refusal(setCode({ source })), source).toBe('accepted')
		expect(await refusal(db.insert(s.orders).values(orderValues(user.id, { orderType: 'request' })))).toContain('orders_order_type_check')
		expect(await refusal(db.insert(s.orders).values(orderValues(user.id, { shippingMethod: 'pigeon' })))).toContain(
			'orders_shipping_method_check',
		)
		for (const shippingMethod of s.SHIPPING_METHODS)
			expect(await refusal(db.insert(s.orders).values(orderValues(user.id, { shippingMethod }))), shippingMethod).toBe('accepted')
		const consent = { userId: user.id, version: 1, agreed: false }
		expect(await refusal(db.insert(s.consents).values({ ...consent, consentType: 'privacy' }))).toContain('consents_consent_type_check')
		for (const consentType of s.CONSENT_TYPES)
			expect(await refusal(db.insert(s.consents).values({ ...consent, consentType })), consentType).toBe('accepted')
		const email = (emailType: string) => ({ toAddress: user.email, emailType, subject: 'S', textBody: 'T', trackingId: randomUUID() })
		expect(await refusal(db.insert(s.emails).values(email('welcome')))).toContain('emails_email_type_check')
		for (const emailType of s.EMAIL_TYPES) expect(await refusal(db.insert(s.emails).values(email(emailType))), emailType).toBe('accepted')
	})

	test('a second order with the same idempotency key from one person; the same key from two people is two orders', async () => {
		const [ada, bob] = [await createUser(), await createUser()]
		const key = randomUUID()
		expect(await refusal(db.insert(s.orders).values(orderValues(ada.id, { idempotencyKey: key })))).toBe('accepted')
		expect(await refusal(db.insert(s.orders).values(orderValues(ada.id, { idempotencyKey: key })))).toContain(
			'orders_user_idempotency_unique',
		)
		expect(await refusal(db.insert(s.orders).values(orderValues(bob.id, { idempotencyKey: key })))).toBe('accepted')
		// The key is the client's own, as it sent it.
		const rows = await db
			.select({ userId: s.orders.userId, key: s.orders.idempotencyKey })
			.from(s.orders)
			.where(eq(s.orders.idempotencyKey, key))
		expect(rows.map((r) => r.userId).sort()).toEqual([ada.id, bob.id].sort())
	})
})

test('the statuses the database allows are the ones the profile forms offer', () => {
	expect(s.CONDITION_STATUSES).toEqual(CONDITION_STATUSES)
	expect(s.DNR_STATUSES).toEqual(DNR_STATUSES)
})
