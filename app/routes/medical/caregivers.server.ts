import { endCaregiver, inviteCaregiver, listCaregivers, listSharedProfiles } from '#app/domain/profiles/caregivers.server.ts'
import type { CaregiverInvite } from '#app/domain/profiles/caregiver-schemas.ts'
import type { ProfileRole } from '#app/domain/profiles/access.server.ts'
import { listProfiles } from '#app/domain/profiles/profiles.server.ts'
import { profileScanHistory } from '#app/domain/qr/manage.server.ts'
import { DomainError } from '#app/utils/errors.ts'
import type { Done } from './intents.ts'

// The Medical Information screen's sharing: whose profiles the person sees, and the Caregivers card's forms.

/**
 * The person's own profiles, then those shared with them (marked with the owner's first name), and which is shown:
 * the one asked for when they may see it, else their first. `refused`: the one asked for is not (or no longer) theirs
 * to see.
 */
export async function screenProfiles(userId: string, requested: number) {
	const [owned, shared] = await Promise.all([listProfiles(userId), listSharedProfiles(userId)])
	const profiles = [
		...owned.map((p) => ({ ...p, role: 'owner' as ProfileRole, sharedBy: null, caregiverId: null })),
		...shared.map(({ role, ...p }) => ({ ...p, role: role as ProfileRole, qrCodeCount: 0 })),
	]
	const chosen = profiles.find((p) => p.id === requested) ?? profiles[0] ?? null
	return { profiles, selected: chosen, refused: Boolean(requested) && chosen?.id !== requested }
}

/** What the shown profile adds for its owner (who helps keep it) and for an editor (its scans). */
export async function sharingOf(userId: string, selected: { id: number; role: ProfileRole } | null) {
	if (!selected || selected.role === 'viewer') return { caregivers: null, scans: null }
	if (selected.role === 'owner') return { caregivers: await listCaregivers(userId, selected.id), scans: null }
	return { caregivers: null, scans: await profileScanHistory(userId, selected.id) }
}

export async function inviteAction(userId: string, profileId: number, invite: CaregiverInvite): Promise<Done> {
	const invited = await inviteCaregiver(userId, profileId, invite)
	return {
		toast: { title: 'Invitation Sent', description: `We e-mailed an invitation to ${invited.email}. It works for 7 days.` },
		profile: profileId,
		hash: 'caregivers',
	}
}

export async function endAction(userId: string, profileId: number, caregiverId: number | undefined): Promise<Done> {
	if (!caregiverId) throw new DomainError(404, 'Caregiver not found')
	const ended = await endCaregiver(userId, profileId, caregiverId)
	if (ended.outcome === 'left')
		return { toast: { title: 'Left', description: 'You no longer help keep this profile.' }, profile: null, deleted: 'profile' }
	return {
		toast: { title: 'Caregiver Removed', description: 'They can no longer see or change this profile.' },
		profile: profileId,
		deleted: 'caregivers',
	}
}
