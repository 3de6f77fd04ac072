import { and, eq, exists, or } from 'drizzle-orm'
import { DomainError } from '#app/utils/errors.ts'
import { db, type Executor } from '#db/client.ts'
import { medicalProfiles, profileCaregivers, type CAREGIVER_ROLES, type MedicalProfile } from '#db/schema.ts'

export type CaregiverRole = (typeof CAREGIVER_ROLES)[number]
/** Who someone is to a profile: its owner (the account it belongs to), or a caregiver the owner shared it with. */
export type ProfileRole = 'owner' | CaregiverRole
/**
 * What a request needs: to read the profile (its sections, files, scan history), to change its medical information,
 * or to be its owner (delete it, share it, link codes, make links and cards, change its settings).
 */
export type Need = 'read' | 'edit' | 'own'

export type ProfileAccess = {
	profile: MedicalProfile
	role: ProfileRole
	/** The account the profile belongs to: files and the access record are its. */
	ownerId: string
	/** Who asks. */
	actorId: string
}

export const PROFILE_NOT_FOUND = 'Profile not found'
export const VIEW_ONLY = 'This profile was shared with you to read: only its owner or an editor can change it.'
export const OWNER_ONLY = "Only the profile's owner can do this."

const ALLOWED: Record<Need, readonly ProfileRole[]> = {
	read: ['owner', 'editor', 'viewer'],
	edit: ['owner', 'editor'],
	own: ['owner'],
}

/** The caregiver row that lets `userId` in, as a condition on medical_profiles. */
const activeCaregiver = (userId: string, executor: Executor) =>
	executor
		.select({ id: profileCaregivers.id })
		.from(profileCaregivers)
		.where(
			and(
				eq(profileCaregivers.medicalProfileId, medicalProfiles.id),
				eq(profileCaregivers.caregiverUserId, userId),
				eq(profileCaregivers.status, 'active'),
			),
		)

/**
 * The one door to a profile: who `userId` is to it, checked against what the request needs. Asked anew on every call
 * (nothing is cached), so a revoked caregiver is refused from the next request on. Someone with no part in the profile
 * gets the same 404 as for an id that does not exist; a caregiver who may not do this gets a 403 that says why.
 *
 * Inside a transaction the profile's row is locked first, and who may act is read after the lock: a change by a
 * caregiver and the owner's revoking (which locks the row too) happen one after the other, never across each other.
 */
export async function profileAccess(userId: string, profileId: number, need: Need, tx?: Executor): Promise<ProfileAccess> {
	const executor = tx ?? db
	if (tx) {
		await tx
			.select({ id: medicalProfiles.id })
			.from(medicalProfiles)
			.where(and(eq(medicalProfiles.id, profileId), or(eq(medicalProfiles.userId, userId), exists(activeCaregiver(userId, tx)))))
			.for('update')
	}
	const [row] = await executor
		.select({ profile: medicalProfiles, role: profileCaregivers.role })
		.from(medicalProfiles)
		.leftJoin(
			profileCaregivers,
			and(
				eq(profileCaregivers.medicalProfileId, medicalProfiles.id),
				eq(profileCaregivers.caregiverUserId, userId),
				eq(profileCaregivers.status, 'active'),
			),
		)
		.where(and(eq(medicalProfiles.id, profileId), or(eq(medicalProfiles.userId, userId), eq(profileCaregivers.caregiverUserId, userId))))
		.limit(1)
	if (!row) throw new DomainError(404, PROFILE_NOT_FOUND)
	const role: ProfileRole = row.profile.userId === userId ? 'owner' : row.role!
	if (!ALLOWED[need].includes(role)) throw new DomainError(403, role === 'viewer' && need === 'edit' ? VIEW_ONLY : OWNER_ONLY)
	return { profile: row.profile, role, ownerId: row.profile.userId, actorId: userId }
}

/** The profile, if `userId` is its owner: what only the owner may do (delete it, link its codes, share it). */
export async function ownedProfile(userId: string, profileId: number, tx?: Executor) {
	return (await profileAccess(userId, profileId, 'own', tx)).profile
}
