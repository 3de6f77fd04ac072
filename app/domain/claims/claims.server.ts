import { DomainError } from '#app/utils/errors.ts'
import { and, asc, eq, isNotNull, isNull } from 'drizzle-orm'
import { db, type Executor } from '#db/client.ts'
import { qrCodes, users } from '#db/schema.ts'
import { ensureOwnProfile, insertFamilyProfile, type FamilyMember } from '#app/domain/profiles/profiles.server.ts'
import { profileAccess } from '#app/domain/profiles/access.server.ts'
import { PinSchema } from '#app/domain/accounts/schemas.ts'
import { env } from '#app/utils/env.server.ts'
import { accountKey, hit, peek, TOO_MANY_ATTEMPTS } from '#app/utils/rate-limit.server.ts'
import { PIN_FORMAT, PIN_REJECTED } from './schemas.ts'

export { PIN_FORMAT, PIN_REJECTED }

export type PinCheck = { valid: true; pin: string } | { valid: false; message: string; status: 400 | 429 }

/** Who tries a PIN: their address, and their account when signed in. */
export type PinAttempt = { userId?: string | null; address: string | null }

/**
 * Wrong PINs per address and per account and minute. Once either count reaches the limit every PIN is refused, the
 * right one too, so guessing from many addresses or many accounts gains nothing.
 */
const wrongPinKeys = ({ userId, address }: PinAttempt) => [
	...(address ? [`wrong-pin:addr:${address}`] : []),
	...(userId ? [accountKey('wrong-pin:user', userId)] : []),
]
export async function tooManyWrongPins(attempt: PinAttempt) {
	const counts = await Promise.all(wrongPinKeys(attempt).map(peek))
	return counts.some((count) => count >= env.RATE_LIMIT_STRICT_PER_MINUTE)
}
async function countWrongPin(attempt: PinAttempt) {
	await Promise.all(wrongPinKeys(attempt).map((key) => hit(key, env.RATE_LIMIT_STRICT_PER_MINUTE)))
}

/** Format first, then the database: the PIN must belong to a code nobody has claimed. */
export async function checkPin(input: unknown, attempt: PinAttempt): Promise<PinCheck> {
	const parsed = PinSchema.safeParse({ pin: input })
	if (!parsed.success) return { valid: false, message: PIN_FORMAT, status: 400 }
	if (await tooManyWrongPins(attempt)) return { valid: false, message: TOO_MANY_ATTEMPTS, status: 429 }
	const code = await db.query.qrCodes.findFirst({
		columns: { id: true },
		where: and(eq(qrCodes.pin, parsed.data.pin), isNull(qrCodes.userId)),
	})
	if (code) return { valid: true, pin: parsed.data.pin }
	await countWrongPin(attempt)
	return { valid: false, message: PIN_REJECTED, status: 400 }
}

/** What a PIN is to this person: a code of theirs already, one free to claim, or nothing they can have. */
export async function pinStateFor(userId: string, pin: string): Promise<'ready' | 'success' | 'error'> {
	const code = await db.query.qrCodes.findFirst({ columns: { userId: true }, where: eq(qrCodes.pin, pin) })
	return !code ? 'error' : code.userId === userId ? 'success' : code.userId ? 'error' : 'ready'
}

/** A code just claimed: its id and token, and the profile it now shows. */
export type ClaimedCode = { qrCodeId: number; token: string; medicalProfileId: number }

/** A signed-in person claiming, and the address they claim from (null: a PIN already checked from an address, at validation). */
export type Claimant = { userId: string; address: string | null }

/** Which profile a claimed code will show: one of the claimant's, a new family member's, or (by default) their own. */
export type ClaimTarget = { profileId: number } | { newProfile: FamilyMember } | { own: true }

/**
 * Claims an unclaimed code for one of the claimant's profiles, in one transaction: the profile is chosen (or created)
 * and the code linked to it, or nothing happens. The claim is one conditional UPDATE, so of two simultaneous claims of
 * one PIN exactly one matches the row. A code is never claimed without a profile to show. Refused with a DomainError:
 * a malformed PIN, too many wrong ones, a PIN nobody can claim (counted as a wrong one), a profile not theirs.
 */
export async function claimCode(claimant: Claimant, pinInput: unknown, target: ClaimTarget = { own: true }): Promise<ClaimedCode> {
	const { userId } = claimant
	const parsed = PinSchema.safeParse({ pin: pinInput })
	if (!parsed.success) throw new DomainError(400, PIN_FORMAT, 'pin')
	if (await tooManyWrongPins(claimant)) throw new DomainError(429, TOO_MANY_ATTEMPTS, 'pin')
	const pin = parsed.data.pin
	try {
		return await db.transaction(async (tx) => {
			const profileId = await targetProfile(tx, userId, target)
			const [claimed] = await tx
				.update(qrCodes)
				.set({ userId, medicalProfileId: profileId, claimedAt: new Date(), isActive: true })
				.where(and(eq(qrCodes.pin, pin), isNull(qrCodes.userId)))
				.returning({ id: qrCodes.id, token: qrCodes.token })
			if (!claimed) throw new DomainError(400, PIN_REJECTED, 'pin')
			return { qrCodeId: claimed.id, token: claimed.token, medicalProfileId: profileId }
		})
	} catch (error) {
		if (error instanceof DomainError && error.message === PIN_REJECTED) await countWrongPin(claimant)
		throw error
	}
}

async function targetProfile(tx: Executor, userId: string, target: ClaimTarget) {
	if ('newProfile' in target) return (await insertFamilyProfile(tx, userId, target.newProfile)).id
	if ('own' in target) return ensureOwnProfile(tx, userId)
	// A code goes only on the claimer's own profile: a caregiver of a shared one is told it is the owner's to do.
	const access = await profileAccess(userId, target.profileId, 'own', tx).catch((error: unknown) => {
		throw error instanceof DomainError ? new DomainError(error.status, error.message, 'medicalProfileId') : error
	})
	return access.profile.id
}

/** Spec 001 §6: a grandfathered account, or the first code the person claimed by PIN. */
export async function getAccessLevel(userId: string, knownGrandfathered?: boolean) {
	const [user, code] = await Promise.all([
		knownGrandfathered === undefined
			? db.query.users.findFirst({ columns: { isGrandfathered: true }, where: eq(users.id, userId) })
			: { isGrandfathered: knownGrandfathered },
		db.query.qrCodes.findFirst({
			columns: { id: true, token: true },
			where: and(eq(qrCodes.userId, userId), isNotNull(qrCodes.pin)),
			orderBy: [asc(qrCodes.claimedAt), asc(qrCodes.id)],
		}),
	])
	return { isGrandfathered: user?.isGrandfathered ?? false, claimedPinQrCode: code ? { id: code.id, qrCodeToken: code.token } : null }
}

/** A PIN validated before sign-in, or by a signed-in person, is claimed for their own profile in the same request. */
export function claimValidatedPin(claimant: Claimant, pin: string) {
	return claimCode(claimant, pin)
}
