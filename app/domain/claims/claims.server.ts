import { and, asc, eq, isNotNull, isNull } from 'drizzle-orm'
import { db } from '#db/client.ts'
import { medicalProfiles, qrCodes, users } from '#db/schema.ts'
import { PinSchema } from '#app/domain/accounts/schemas.ts'
import { TOO_MANY_ATTEMPTS } from '#app/middleware/security.server.ts'
import { env } from '#app/utils/env.server.ts'
import { hit, peek } from '#app/utils/rate-limit.server.ts'
import { PIN_FORMAT, PIN_REJECTED } from './schemas.ts'

export { PIN_FORMAT, PIN_REJECTED }

export type PinCheck = { valid: true; pin: string } | { valid: false; message: string }

/** Wrong PINs per account and minute, on top of the per-address limit every PIN request has. */
const wrongPinKey = (userId: string) => `wrong-pin:${userId}`
export const tooManyWrongPins = async (userId?: string | null) => Boolean(userId) && (await peek(wrongPinKey(userId!))) >= env.RATE_LIMIT_STRICT_PER_MINUTE
export const countWrongPin = async (userId?: string | null) => {
	if (userId) await hit(wrongPinKey(userId), env.RATE_LIMIT_STRICT_PER_MINUTE)
}

/** Format first, then the database: the PIN must belong to a code nobody has claimed. */
export async function checkPin(input: unknown, userId?: string | null): Promise<PinCheck> {
	const parsed = PinSchema.safeParse({ pin: input })
	if (!parsed.success) return { valid: false, message: PIN_FORMAT }
	if (await tooManyWrongPins(userId)) return { valid: false, message: TOO_MANY_ATTEMPTS }
	const code = await db.query.qrCodes.findFirst({
		columns: { id: true },
		where: and(eq(qrCodes.pin, parsed.data.pin), isNull(qrCodes.userId)),
	})
	if (code) return { valid: true, pin: parsed.data.pin }
	await countWrongPin(userId)
	return { valid: false, message: PIN_REJECTED }
}

export type ClaimResult =
	| { ok: true; qrCodeId: number; token: string }
	| { ok: false; message: string; status: 400 | 404 | 429 }

/**
 * One conditional UPDATE: of two simultaneous claims of one PIN exactly one matches the row.
 * A profile, when given, must be the claimant's own.
 */
export async function claimCode(userId: string, pinInput: unknown, medicalProfileId?: number | null): Promise<ClaimResult> {
	const parsed = PinSchema.safeParse({ pin: pinInput })
	if (!parsed.success) return { ok: false, message: PIN_FORMAT, status: 400 }
	if (await tooManyWrongPins(userId)) return { ok: false, message: TOO_MANY_ATTEMPTS, status: 429 }
	if (medicalProfileId != null) {
		const profile = await db.query.medicalProfiles.findFirst({
			columns: { id: true },
			where: and(eq(medicalProfiles.id, medicalProfileId), eq(medicalProfiles.userId, userId)),
		})
		if (!profile) return { ok: false, message: 'Profile not found', status: 404 }
	}
	const [claimed] = await db
		.update(qrCodes)
		.set({ userId, medicalProfileId: medicalProfileId ?? null, claimedAt: new Date(), isActive: true })
		.where(and(eq(qrCodes.pin, parsed.data.pin), isNull(qrCodes.userId)))
		.returning({ id: qrCodes.id, token: qrCodes.token })
	if (claimed) return { ok: true, qrCodeId: claimed.id, token: claimed.token }
	await countWrongPin(userId)
	return { ok: false, message: PIN_REJECTED, status: 400 }
}

/** Spec 001 §6: a grandfathered account, or the first code the person claimed by PIN. */
export async function getAccessLevel(userId: string) {
	const [user, code] = await Promise.all([
		db.query.users.findFirst({ columns: { isGrandfathered: true }, where: eq(users.id, userId) }),
		db.query.qrCodes.findFirst({
			columns: { id: true, token: true },
			where: and(eq(qrCodes.userId, userId), isNotNull(qrCodes.pin)),
			orderBy: [asc(qrCodes.claimedAt), asc(qrCodes.id)],
		}),
	])
	return { isGrandfathered: user?.isGrandfathered ?? false, claimedPinQrCode: code ? { id: code.id, qrCodeToken: code.token } : null }
}

/** A PIN validated before sign-in, or by a signed-in person, is claimed for their own profile in the same request. */
export async function claimValidatedPin(userId: string, pin: string) {
	const { ownProfileId } = await import('#app/domain/profiles/profiles.server.ts')
	return claimCode(userId, pin, await ownProfileId(userId))
}

export function claimToast(result: ClaimResult) {
	return result.ok
		? ({ type: 'success', title: 'QR Code Claimed', description: 'This QR code is now linked to your account.' } as const)
		: ({ type: 'error', title: 'Claim Failed', description: result.message } as const)
}
