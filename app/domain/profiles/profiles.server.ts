import { and, asc, count, desc, eq, inArray, isNull } from 'drizzle-orm'
import { db } from '#db/client.ts'
import {
	allergies,
	emergencyContacts,
	insurancePolicies,
	medicalConditions,
	medicalDocuments,
	medicalProfiles,
	medications,
	qrCodes,
} from '#db/schema.ts'
import { storage } from '#app/adapters/storage.server.ts'
import { countWrongPin, tooManyWrongPins } from '#app/domain/claims/claims.server.ts'
import { PIN_REJECTED } from '#app/domain/claims/schemas.ts'
import { TOO_MANY_ATTEMPTS } from '#app/middleware/security.server.ts'
import type { PersonalInfo } from './schemas.ts'

export const LAST_PROFILE = 'You must have at least one profile.'

export class ProfileError extends Error {
	constructor(
		message: string,
		readonly status: 400 | 404 = 400,
	) {
		super(message)
	}
}

/** Every read and write below is scoped to the owner inside the query: another person's id finds nothing. */
export async function ownedProfile(userId: string, profileId: number) {
	const profile = await db.query.medicalProfiles.findFirst({
		where: and(eq(medicalProfiles.id, profileId), eq(medicalProfiles.userId, userId)),
	})
	if (!profile) throw new ProfileError('Profile not found', 404)
	return profile
}

export async function listProfiles(userId: string) {
	const rows = await db
		.select({
			id: medicalProfiles.id,
			fullName: medicalProfiles.fullName,
			relationshipToUser: medicalProfiles.relationshipToUser,
			gender: medicalProfiles.gender,
			dateOfBirth: medicalProfiles.dateOfBirth,
			isScannable: medicalProfiles.isScannable,
		})
		.from(medicalProfiles)
		.where(eq(medicalProfiles.userId, userId))
		.orderBy(asc(medicalProfiles.id))
	const codeCounts = rows.length
		? await db
				.select({ profileId: qrCodes.medicalProfileId, n: count() })
				.from(qrCodes)
				.where(and(eq(qrCodes.userId, userId), inArray(qrCodes.medicalProfileId, rows.map((r) => r.id))))
				.groupBy(qrCodes.medicalProfileId)
		: []
	return rows.map((row) => ({ ...row, qrCodeCount: codeCounts.find((c) => c.profileId === row.id)?.n ?? 0 }))
}

export async function getProfileDetail(userId: string, profileId: number) {
	const profile = await db.query.medicalProfiles.findFirst({
		where: and(eq(medicalProfiles.id, profileId), eq(medicalProfiles.userId, userId)),
		with: {
			emergencyContacts: { orderBy: asc(emergencyContacts.id) },
			allergies: { orderBy: asc(allergies.id) },
			medications: { orderBy: asc(medications.id) },
			medicalConditions: { orderBy: asc(medicalConditions.id) },
			insurancePolicies: { orderBy: asc(insurancePolicies.id) },
			medicalDocuments: { orderBy: asc(medicalDocuments.id) },
		},
	})
	return profile ?? null
}
export type ProfileDetail = NonNullable<Awaited<ReturnType<typeof getProfileDetail>>>

/** The person's own profile: the one about themselves, else their first. */
export async function ownProfileId(userId: string) {
	const own = await db.query.medicalProfiles.findFirst({
		columns: { id: true },
		where: eq(medicalProfiles.userId, userId),
		orderBy: [desc(eq(medicalProfiles.relationshipToUser, 'self')), asc(medicalProfiles.id)],
	})
	return own?.id ?? null
}

function fullNameOf(info: Pick<PersonalInfo, 'firstName' | 'middleName' | 'lastName'>) {
	return [info.firstName, info.middleName, info.lastName].filter(Boolean).join(' ') || null
}

/** Personal Information: creates the person's own profile on first save, else updates the chosen profile. */
export async function savePersonalInfo(userId: string, info: PersonalInfo, profileId?: number | null) {
	const values = { ...nullify(info), confirmedAt: new Date() }
	const name = fullNameOf(info)
	if (profileId) {
		await ownedProfile(userId, profileId)
		const [profile] = await db
			.update(medicalProfiles)
			.set({ ...values, ...(name ? { fullName: name } : {}) })
			.where(and(eq(medicalProfiles.id, profileId), eq(medicalProfiles.userId, userId)))
			.returning()
		return { created: false, profile: profile! }
	}
	const existing = await ownProfileId(userId)
	if (existing) return savePersonalInfo(userId, info, existing)
	const [profile] = await db
		.insert(medicalProfiles)
		.values({ ...values, userId, relationshipToUser: 'self', fullName: name })
		.returning()
	return { created: true, profile: profile! }
}

/** Undefined (a cleared optional field) is stored as NULL so clearing a field really clears it. */
function nullify<T extends Record<string, unknown>>(values: T) {
	return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v ?? null])) as { [K in keyof T]: Exclude<T[K], undefined> | null }
}
export { nullify }

type FamilyMember = { fullName: string; relationshipToUser: string; gender?: string; dateOfBirth?: string; pin: string }

/** The new profile and the claim of its sticker happen together or not at all. */
export async function createFamilyProfile(userId: string, member: FamilyMember) {
	if (await tooManyWrongPins(userId)) throw new ProfileError(TOO_MANY_ATTEMPTS)
	return db.transaction(async (tx) => {
		const [profile] = await tx
			.insert(medicalProfiles)
			.values({
				userId,
				fullName: member.fullName,
				relationshipToUser: member.relationshipToUser,
				gender: member.gender ?? null,
				dateOfBirth: member.dateOfBirth ?? null,
				confirmedAt: new Date(),
			})
			.returning()
		const [claimed] = await tx
			.update(qrCodes)
			.set({ userId, medicalProfileId: profile!.id, claimedAt: new Date(), isActive: true })
			.where(and(eq(qrCodes.pin, member.pin), isNull(qrCodes.userId)))
			.returning({ id: qrCodes.id })
		if (!claimed) tx.rollback()
		return profile!
	}).catch(async (error: unknown) => {
		if (!(error instanceof Error && error.constructor.name === 'TransactionRollbackError')) throw error
		await countWrongPin(userId)
		throw new ProfileError(PIN_REJECTED)
	})
}

/** Refused for the last profile; the profile's files go with it. */
export async function deleteProfile(userId: string, profileId: number) {
	const profile = await ownedProfile(userId, profileId)
	const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(medicalProfiles).where(eq(medicalProfiles.userId, userId))
	if (n <= 1) throw new ProfileError(LAST_PROFILE)
	const keys = await profileFileKeys(profile.id)
	await db.delete(medicalProfiles).where(and(eq(medicalProfiles.id, profileId), eq(medicalProfiles.userId, userId)))
	await Promise.all([...keys, profile.profilePictureKey, profile.dnrDocumentKey].filter((k): k is string => Boolean(k)).map((k) => storage.delete(k)))
}

async function profileFileKeys(profileId: number) {
	const [docs, policies] = await Promise.all([
		db.select({ key: medicalDocuments.storageKey }).from(medicalDocuments).where(eq(medicalDocuments.medicalProfileId, profileId)),
		db.select({ key: insurancePolicies.cardFrontPhotoKey }).from(insurancePolicies).where(eq(insurancePolicies.medicalProfileId, profileId)),
	])
	return [...docs.map((d) => d.key), ...policies.map((p) => p.key)].filter((k): k is string => Boolean(k))
}

export async function updateProfileFields(userId: string, profileId: number, values: Partial<typeof medicalProfiles.$inferInsert>) {
	const [profile] = await db
		.update(medicalProfiles)
		.set(values)
		.where(and(eq(medicalProfiles.id, profileId), eq(medicalProfiles.userId, userId)))
		.returning()
	if (!profile) throw new ProfileError('Profile not found', 404)
	return profile
}

/**
 * Codes always show the profile's live data; updating them confirms that data as current
 * (the responder page's "last confirmed" date) and marks each code as refreshed.
 */
export async function refreshProfileCodes(userId: string, profileId: number) {
	await updateProfileFields(userId, profileId, { confirmedAt: new Date() })
	const updated = await db
		.update(qrCodes)
		.set({ updatedAt: new Date() })
		.where(and(eq(qrCodes.userId, userId), eq(qrCodes.medicalProfileId, profileId)))
		.returning({ id: qrCodes.id })
	return updated.length
}
