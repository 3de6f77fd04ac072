import { eq } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { db } from '#db/client.ts'
import { qrCodes, qrRequests } from '#db/schema.ts'
import { createStickerCodes } from '#app/domain/qr/codes.server.ts'
import { createUser } from '#tests/factories.ts'
import { qrStats } from './stats.server.ts'

const request = (requestStatus: 'pending' | 'fulfilled') => ({
	fullName: 'Ada Lovelace',
	email: 'ada@example.com',
	quantity: 2,
	streetAddress: '1 Main St',
	city: 'Springfield',
	state: 'IL',
	postalCode: '62701',
	country: 'US',
	requestStatus,
	fulfilledAt: requestStatus === 'fulfilled' ? new Date() : null,
})

test('claimed codes have an owner, unclaimed ones do not (inactive ones count too); pending requests are counted', async () => {
	const before = await qrStats()
	const [claimed, inactive] = await createStickerCodes(3)
	const owner = await createUser()
	await db.update(qrCodes).set({ userId: owner.id, claimedAt: new Date() }).where(eq(qrCodes.id, claimed!.id))
	await db.update(qrCodes).set({ isActive: false }).where(eq(qrCodes.id, inactive!.id))
	await db.insert(qrRequests).values([request('pending'), request('pending'), request('fulfilled')])

	const after = await qrStats()
	expect({
		total: after.total - before.total,
		claimed: after.claimed - before.claimed,
		unclaimed: after.unclaimed - before.unclaimed,
		pendingRequests: after.pendingRequests - before.pendingRequests,
	}).toEqual({ total: 3, claimed: 1, unclaimed: 2, pendingRequests: 2 })
	expect(after.total).toBe(after.claimed + after.unclaimed)
	expect(Object.keys(after).sort()).toEqual(['claimed', 'pendingRequests', 'total', 'unclaimed'])
})
