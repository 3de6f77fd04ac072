import { DomainError } from '#app/utils/errors.ts'
import { and, asc, count, eq, inArray, sql, type AnyColumn } from 'drizzle-orm'
import { db, type Executor } from '#db/client.ts'
import { columnsOf } from '#db/queries.ts'
import { insurancePolicies, medicalDocuments, medicalProfiles, qrCodes, users, type MedicalProfile } from '#db/schema.ts'
import { discardFiles } from '#app/domain/uploads/pending.server.ts'
import type { PersonalInfo } from './schemas.ts'
import { auditCaregiverRead, auditChange, changedFields } from './audit.server.ts'
import { ownedProfile, profileAccess, PROFILE_NOT_FOUND, type Need } from './access.server.ts'
import { readProfile, Unlisted, type Sent } from './vocabularies.ts'

export const LAST_PROFILE = 'You must have at least one profile.'

/** The relationship that marks the account holder's own profile. */
export const OWN = 'self'

/** The ids of a person's profiles, as a subquery or, inside a transaction, to lock with `.for('update')`. */
export const ownedProfileIds = (userId: string, tx: Executor = db) =>
	tx.select({ id: medicalProfiles.id }).from(medicalProfiles).where(eq(medicalProfiles.userId, userId))

export async function listProfiles(userId: string) {
	const rows = await db
		.select(columnsOf(medicalProfiles, 'id', 'fullName', 'relationshipToUser', 'gender', 'dateOfBirth', 'isScannable'))
		.from(medicalProfiles)
		.where(eq(medicalProfiles.userId, userId))
		.orderBy(asc(medicalProfiles.id))
	const codeCounts = rows.length
		? await db
				.select({ profileId: qrCodes.medicalProfileId, n: count() })
				.from(qrCodes)
				.where(
					and(
						eq(qrCodes.userId, userId),
						inArray(
							qrCodes.medicalProfileId,
							rows.map((r) => r.id),
						),
					),
				)
				.groupBy(qrCodes.medicalProfileId)
		: []
	return rows.map((row) => ({ ...row, qrCodeCount: codeCounts.find((c) => c.profileId === row.id)?.n ?? 0 }))
}

/** A profile's list rows in the order they were added. */
const byId = (row: { id: AnyColumn }) => asc(row.id)

/**
 * A profile with every section, for someone who may (`need`) see it: null when they have no part in it. A caregiver's
 * read is recorded.
 */
export async function getProfileDetail(userId: string, profileId: number, need: Need = 'own') {
	const access = await profileAccess(userId, profileId, need).catch((error: unknown) => {
		if (error instanceof DomainError && error.message === PROFILE_NOT_FOUND) return null
		throw error
	})
	if (!access) return null
	const profile = await db.query.medicalProfiles.findFirst({
		where: eq(medicalProfiles.id, profileId),
		with: {
			emergencyContacts: { orderBy: byId },
			allergies: { orderBy: byId },
			medications: { orderBy: byId },
			medicalConditions: { orderBy: byId },
			insurancePolicies: { orderBy: byId },
			medicalDocuments: { orderBy: byId },
		},
	})
	if (!profile) return null
	await auditCaregiverRead(access, 'profile')
	// Read as the vocabularies spell them, so the cards, shared records and pages built from it all see one spelling.
	return readProfile(profile)
}
export type ProfileDetail = NonNullable<Awaited<ReturnType<typeof getProfileDetail>>>

/** The account holder's own profile: the one marked 'self' (one per account), never a family member's. */
export async function ownProfileId(userId: string, tx: Executor = db) {
	const [own] = await tx
		.select({ id: medicalProfiles.id })
		.from(medicalProfiles)
		.where(and(eq(medicalProfiles.userId, userId), eq(medicalProfiles.relationshipToUser, OWN)))
	return own?.id ?? null
}

type NameParts = { firstName?: string | null; middleName?: string | null; lastName?: string | null }

/** The name a profile is listed under, from its parts; null when it has none. */
export function fullNameOf(info: NameParts) {
	return [info.firstName, info.middleName, info.lastName].filter(Boolean).join(' ') || null
}

/**
 * Personal Information: updates the chosen profile, or without one the person's own (created on first save, even
 * when the account so far holds only family members' profiles).
 */
export async function savePersonalInfo(userId: string, info: PersonalInfo, profileId?: number | null) {
	const name = fullNameOf(info)
	const target = profileId ?? (await ownProfileId(userId))
	if (target) {
		const profile = await db.transaction(async (tx) => {
			const access = await profileAccess(userId, target, 'edit', tx)
			const before = access.profile
			const values = confirmed(nullify(settle(info, before)))
			const [after] = await tx
				.update(medicalProfiles)
				.set({ ...values, ...(name ? { fullName: name } : {}) })
				.where(eq(medicalProfiles.id, target))
				.returning()
			await auditChange(tx, {
				profileId: target,
				ownerUserId: access.ownerId,
				actorUserId: userId,
				action: 'personal-info',
				fields: changedFields(before, values),
			})
			return after!
		})
		return { created: false, profile }
	}
	const profile = await db.transaction(async (tx) => {
		const [created] = await tx
			.insert(medicalProfiles)
			.values({ ...confirmed(nullify(settle(info, null))), userId, relationshipToUser: OWN, fullName: name })
			.onConflictDoNothing({ target: medicalProfiles.userId, where: sql`${medicalProfiles.relationshipToUser} = 'self'` })
			.returning()
		if (created) await auditCreated(tx, created)
		return created
	})
	// Another request created the own profile first: this save updates it.
	if (!profile) return savePersonalInfo(userId, info, await ownProfileId(userId))
	return { created: true, profile }
}

function auditCreated(tx: Executor, profile: typeof medicalProfiles.$inferSelect) {
	return auditChange(tx, {
		profileId: profile.id,
		ownerUserId: profile.userId,
		action: 'profile-created',
		fields: changedFields(
			null,
			Object.fromEntries(
				Object.entries(profile).filter(([key, value]) => value != null && key !== 'isScannable' && key !== 'relationshipToUser'),
			),
		),
	})
}

/** The own profile's id, created (named after the account) when the person has none yet. */
export async function ensureOwnProfile(tx: Executor, userId: string) {
	const existing = await ownProfileId(userId, tx)
	if (existing) return existing
	const [user] = await tx.select({ firstName: users.firstName, lastName: users.lastName }).from(users).where(eq(users.id, userId))
	const name = [user?.firstName, user?.lastName].filter(Boolean).join(' ') || null
	const [created] = await tx
		.insert(medicalProfiles)
		.values(
			confirming({ userId, relationshipToUser: OWN, firstName: user?.firstName ?? null, lastName: user?.lastName ?? null, fullName: name }),
		)
		.onConflictDoNothing({ target: medicalProfiles.userId, where: sql`${medicalProfiles.relationshipToUser} = 'self'` })
		.returning()
	if (created) await auditCreated(tx, created)
	return (await ownProfileId(userId, tx))!
}

type SettledValues<T> = { [K in keyof T as Unlisted extends T[K] ? never : K]: T[K] } & {
	[K in keyof T as Unlisted extends T[K] ? K : never]?: Exclude<T[K], Unlisted>
}

/**
 * A change as it is written. A value outside its field's vocabulary (Unlisted) was sent back by a form that was given
 * it to show: the field is left out of the change and keeps it. Sent for a field that no longer holds it (or for a new
 * row), it is refused.
 */
export function settle<T extends Record<string, unknown>>(values: T, stored: Record<string, unknown> | null): SettledValues<T> {
	const settled: Record<string, unknown> = {}
	for (const [field, value] of Object.entries(values)) {
		if (!(value instanceof Unlisted)) settled[field] = value
		else if (stored?.[field] == null || String(stored[field]) !== value.value) throw new DomainError(400, value.message, field)
	}
	return settled as SettledValues<T>
}

/** Undefined (a cleared optional field) is stored as NULL so clearing a field really clears it. */
function nullify<T extends Record<string, unknown>>(values: T) {
	return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v ?? null])) as { [K in keyof T]: Exclude<T[K], undefined> | null }
}
export { nullify }

export type FamilyMember = { fullName: string; relationshipToUser: string; gender?: string; dateOfBirth?: string }

export const OWN_PROFILE_EXISTS = 'You already have a profile for yourself. Please choose another relationship.'

/** A new family member's profile, inside the caller's transaction (the claim of its sticker goes with it). */
export async function insertFamilyProfile(tx: Executor, userId: string, member: FamilyMember) {
	const [profile] = await tx
		.insert(medicalProfiles)
		.values(
			confirming({
				userId,
				fullName: member.fullName,
				relationshipToUser: member.relationshipToUser,
				gender: member.gender ?? null,
				dateOfBirth: member.dateOfBirth ?? null,
			}),
		)
		.onConflictDoNothing({ target: medicalProfiles.userId, where: sql`${medicalProfiles.relationshipToUser} = 'self'` })
		.returning()
	if (!profile) throw new DomainError(400, OWN_PROFILE_EXISTS, 'relationshipToUser')
	await auditCreated(tx, profile)
	return profile
}

export type UnlinkedCode = { id: number; pin: string | null }

/**
 * Refused for the last profile. Its codes are unlinked and turned off in the same transaction (a sticker never falls
 * back to another profile), and returned so the person can be told which need a profile now; its files go after.
 */
export async function deleteProfile(userId: string, profileId: number): Promise<UnlinkedCode[]> {
	const profile = await ownedProfile(userId, profileId)
	const keys = await profileFileKeys(profile.id)
	const unlinked = await db.transaction(async (tx) => {
		// Locked, so two deletions at once cannot both see another profile left.
		const all = await ownedProfileIds(userId, tx).for('update')
		if (all.length <= 1) throw new DomainError(400, LAST_PROFILE)
		const codes = await tx
			.update(qrCodes)
			.set({ medicalProfileId: null, isActive: false })
			.where(and(eq(qrCodes.userId, userId), eq(qrCodes.medicalProfileId, profileId)))
			.returning({ id: qrCodes.id, pin: qrCodes.pin })
		await tx.delete(medicalProfiles).where(and(eq(medicalProfiles.id, profileId), eq(medicalProfiles.userId, userId)))
		await auditChange(tx, { profileId, ownerUserId: userId, action: 'profile-deleted', fields: [], detail: profile.fullName })
		return codes
	})
	await discardFiles(...keys, profile.profilePictureKey, profile.dnrDocumentKey)
	return unlinked
}

async function profileFileKeys(profileId: number) {
	const [docs, policies] = await Promise.all([
		db.select({ key: medicalDocuments.storageKey }).from(medicalDocuments).where(eq(medicalDocuments.medicalProfileId, profileId)),
		db
			.select({ key: insurancePolicies.cardFrontPhotoKey })
			.from(insurancePolicies)
			.where(eq(insurancePolicies.medicalProfileId, profileId)),
	])
	return [...docs.map((d) => d.key), ...policies.map((p) => p.key)].filter((k): k is string => Boolean(k))
}

/** Profile fields that are settings rather than information: changing them confirms nothing. */
const SETTINGS: ReadonlySet<string> = new Set(['isScannable', 'profilePictureKey', 'reviewIntervalMonths', 'helpingAlerts'])
/** The settings only the owner changes: whether codes show the profile, and the owner's own reminders and alerts. */
const OWNER_SETTINGS: ReadonlySet<string> = new Set(['isScannable', 'reviewIntervalMonths', 'helpingAlerts'])

/** Writing what a profile says is the owner confirming it as current: the responder page shows that date. */
function confirming<T extends Record<string, unknown>>(values: T): T & { confirmedAt?: Date } {
	return Object.keys(values).some((key) => !SETTINGS.has(key)) ? confirmed(values) : values
}

/** Saved as it is, even when nothing in it changed: the owner has looked at it and says it is current. */
function confirmed<T extends Record<string, unknown>>(values: T): T & { confirmedAt: Date } {
	return { ...values, confirmedAt: new Date() }
}

/** A section of the profile changed (a contact, an allergy...), or its codes were refreshed: confirmed as current. */
export async function confirmProfile(executor: Executor, profileId: number) {
	await executor.update(medicalProfiles).set(confirmed({})).where(eq(medicalProfiles.id, profileId))
}

export type ProfileValues = Partial<typeof medicalProfiles.$inferInsert>

export async function updateProfileFields(
	userId: string,
	profileId: number,
	sent: Sent<ProfileValues>,
	executor?: Executor,
): Promise<MedicalProfile> {
	if (!executor) return db.transaction((tx) => updateProfileFields(userId, profileId, sent, tx))
	const need = Object.keys(sent).some((key) => OWNER_SETTINGS.has(key)) ? 'own' : 'edit'
	const access = await profileAccess(userId, profileId, need, executor)
	const before = access.profile
	const values: ProfileValues = settle(sent, before)
	const [profile] = await executor.update(medicalProfiles).set(confirming(values)).where(eq(medicalProfiles.id, profileId)).returning()
	await auditChange(executor, {
		profileId,
		ownerUserId: access.ownerId,
		actorUserId: userId,
		action: 'profile-updated',
		fields: changedFields(before, values),
	})
	return profile!
}

/**
 * Codes always show the profile's live data; updating them confirms that data as current
 * (the responder page's "last confirmed" date) and marks each code as refreshed.
 */
export async function refreshProfileCodes(userId: string, profileId: number) {
	await ownedProfile(userId, profileId)
	await confirmProfile(db, profileId)
	const updated = await db
		.update(qrCodes)
		.set({ updatedAt: new Date() })
		.where(and(eq(qrCodes.userId, userId), eq(qrCodes.medicalProfileId, profileId)))
		.returning({ id: qrCodes.id })
	return updated.length
}
