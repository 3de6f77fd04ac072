import { and, asc, eq, isNotNull, isNull } from 'drizzle-orm'
import { db } from '#db/client.ts'
import { medicalProfiles, qrCodes, users } from '#db/schema.ts'
import { ensureOwnProfile, insertFamilyProfile, ProfileError, type Executor, type FamilyMember } from '#app/domain/profiles/profiles.server.ts'
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
	| { ok: true; qrCodeId: number; token: string; medicalProfileId: number }
	| { ok: false; message: string; status: 400 | 404 | 429; field?: string }

/** Which profile a claimed code will show: one of the claimant's, a new family member's, or (by default) their own. */
export type ClaimTarget = { profileId: number } | { newProfile: FamilyMember } | { own: true }

/**
 * Claims an unclaimed code for one of the claimant's profiles, in one transaction: the profile is chosen (or created)
 * and the code linked to it, or nothing happens. The claim is one conditional UPDATE, so of two simultaneous claims of
 * one PIN exactly one matches the row. A code is never claimed without a profile to show.
 */
export async function claimCode(userId: string, pinInput: unknown, target: ClaimTarget = { own: true }): Promise<ClaimResult> {
	const parsed = PinSchema.safeParse({ pin: pinInput })
	if (!parsed.success) return { ok: false, message: PIN_FORMAT, status: 400 }
	if (await tooManyWrongPins(userId)) return { ok: false, message: TOO_MANY_ATTEMPTS, status: 429 }
	const pin = parsed.data.pin
	try {
		return await db.transaction(async (tx) => {
			const profileId = await targetProfile(tx, userId, target)
			const [claimed] = await tx
				.update(qrCodes)
				.set({ userId, medicalProfileId: profileId, claimedAt: new Date(), isActive: true })
				.where(and(eq(qrCodes.pin, pin), isNull(qrCodes.userId)))
				.returning({ id: qrCodes.id, token: qrCodes.token })
			if (!claimed) throw new ProfileError(PIN_REJECTED, 400, 'pin')
			return { ok: true as const, qrCodeId: claimed.id, token: claimed.token, medicalProfileId: profileId }
		})
	} catch (error) {
		if (!(error instanceof ProfileError)) throw error
		if (error.message === PIN_REJECTED) await countWrongPin(userId)
		return { ok: false, message: error.message, status: error.status, field: error.field }
	}
}

async function targetProfile(tx: Executor, userId: string, target: ClaimTarget) {
	if ('newProfile' in target) return (await insertFamilyProfile(tx, userId, target.newProfile)).id
	if ('own' in target) return ensureOwnProfile(tx, userId)
	const [profile] = await tx
		.select({ id: medicalProfiles.id })
		.from(medicalProfiles)
		.where(and(eq(medicalProfiles.id, target.profileId), eq(medicalProfiles.userId, userId)))
	if (!profile) throw new ProfileError('Profile not found', 404, 'medicalProfileId')
	return profile.id
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
export function claimValidatedPin(userId: string, pin: string) {
	return claimCode(userId, pin)
}

export function claimToast(result: ClaimResult) {
	return result.ok
		? ({ type: 'success', title: 'QR Code Claimed', description: 'This QR code is now linked to your account.' } as const)
		: ({ type: 'error', title: 'Claim Failed', description: result.message } as const)
}
