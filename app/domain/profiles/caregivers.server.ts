import { createHash, randomBytes } from 'node:crypto'
import { and, asc, eq, inArray, isNotNull, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import { db, type Executor } from '#db/client.ts'
import { medicalProfiles, profileCaregivers, users } from '#db/schema.ts'
import { deliverSoon, queueEmail } from '#app/adapters/mail.server.ts'
import { env } from '#app/utils/env.server.ts'
import { DomainError } from '#app/utils/errors.ts'
import { accountKey, hit, TOO_MANY_ATTEMPTS } from '#app/utils/rate-limit.server.ts'
import { profileAccess, type CaregiverRole } from './access.server.ts'
import { auditChange } from './audit.server.ts'
import { CAREGIVER_MESSAGES, CLOSED_INVITATION, MAX_CAREGIVERS } from './caregiver-labels.ts'
import type { CaregiverInvite } from './caregiver-schemas.ts'

/** How long an invitation's link works. */
export const INVITATION_DAYS = 7
export const INVITATION_PATH = '/invitations'

/** The link carries the token; the database keeps only its hash, so a copy of the table shares nothing. */
const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url')
const normalized = (email: string) => email.trim().toLowerCase()
const firstNameOf = (name: string | null | undefined) => name?.trim().split(/\s+/)[0] || null

/** Pending (and not expired) or active: what counts against the limit and against inviting someone twice. */
const live = (row: { status: string; expiresAt: Date }, now = Date.now()) =>
	row.status === 'active' || (row.status === 'pending' && row.expiresAt.getTime() > now)

export type CaregiverView = {
	id: number
	email: string
	role: CaregiverRole
	/** `expired`: a pending invitation whose link no longer works (the owner may remove it and invite again). */
	status: 'pending' | 'active' | 'expired'
	/** The caregiver's name, once they accepted. */
	name: string | null
	invitedAt: string
	acceptedAt: string | null
	expiresAt: string
}

/** The profile's caregivers and invitations still standing, oldest first: for its owner only. */
export async function listCaregivers(userId: string, profileId: number): Promise<CaregiverView[]> {
	await profileAccess(userId, profileId, 'own')
	const rows = await db
		.select({ row: profileCaregivers, firstName: users.firstName, lastName: users.lastName })
		.from(profileCaregivers)
		.leftJoin(users, eq(users.id, profileCaregivers.caregiverUserId))
		.where(and(eq(profileCaregivers.medicalProfileId, profileId), inArray(profileCaregivers.status, ['pending', 'active'])))
		.orderBy(asc(profileCaregivers.id))
	return rows.map(({ row, firstName, lastName }) => ({
		id: row.id,
		email: row.email,
		role: row.role,
		status: row.status === 'active' ? 'active' : live(row) ? 'pending' : 'expired',
		name: [firstName, lastName].filter(Boolean).join(' ') || null,
		invitedAt: row.createdAt.toISOString(),
		acceptedAt: row.acceptedAt?.toISOString() ?? null,
		expiresAt: row.expiresAt.toISOString(),
	}))
}

/**
 * Invites `email` to help keep the profile, as `role`: a single-use link valid INVITATION_DAYS goes to that address.
 * Refused, beside the `email` field: the owner's own address, someone already invited or helping, a full profile, and
 * more invitations in an hour than the strict limit allows (each one mails an address the owner chose).
 */
export async function inviteCaregiver(userId: string, profileId: number, invite: CaregiverInvite): Promise<CaregiverView> {
	const email = normalized(invite.email)
	const token = randomBytes(32).toString('base64url')
	const created = await db.transaction(async (tx) => {
		// The profile's row is locked: two invitations at once cannot both pass the checks below.
		const access = await profileAccess(userId, profileId, 'own', tx)
		const [owner] = await tx.select({ email: users.email, firstName: users.firstName }).from(users).where(eq(users.id, userId))
		if (normalized(owner!.email) === email) throw new DomainError(400, CAREGIVER_MESSAGES.yourself, 'email')
		const standing = (
			await tx
				.select({ row: profileCaregivers, accountEmail: users.email })
				.from(profileCaregivers)
				.leftJoin(users, eq(users.id, profileCaregivers.caregiverUserId))
				.where(and(eq(profileCaregivers.medicalProfileId, profileId), inArray(profileCaregivers.status, ['pending', 'active'])))
		).filter(({ row }) => live(row))
		const same = standing.find(({ row, accountEmail }) => row.email === email || (accountEmail && normalized(accountEmail) === email))
		if (same)
			throw new DomainError(
				409,
				same.row.status === 'active' ? CAREGIVER_MESSAGES.alreadyHelping : CAREGIVER_MESSAGES.alreadyInvited,
				'email',
			)
		if (standing.length >= MAX_CAREGIVERS) throw new DomainError(400, CAREGIVER_MESSAGES.full, 'email')
		const sent = await hit(accountKey('caregiver-invite-account', userId), env.RATE_LIMIT_STRICT_PER_MINUTE, 60 * 60)
		if (!sent.allowed) throw new DomainError(429, TOO_MANY_ATTEMPTS, 'email', sent.retryAfterSeconds)
		const expiresAt = new Date(Date.now() + INVITATION_DAYS * 24 * 60 * 60 * 1000)
		const [row] = await tx
			.insert(profileCaregivers)
			.values({ medicalProfileId: profileId, ownerUserId: userId, email, role: invite.role, tokenHash: hashToken(token), expiresAt })
			.returning()
		await auditChange(tx, { profileId, ownerUserId: userId, action: 'caregiver-invited', fields: [], detail: `#${row!.id} ${invite.role}` })
		await queueEmail(tx, invitationEmail({ email, token, role: invite.role, owner: owner!.firstName, profile: access.profile.fullName }))
		return row!
	})
	deliverSoon()
	return {
		id: created.id,
		email,
		role: created.role,
		status: 'pending',
		name: null,
		invitedAt: created.createdAt.toISOString(),
		acceptedAt: null,
		expiresAt: created.expiresAt.toISOString(),
	}
}

function invitationEmail(invitation: { email: string; token: string; role: CaregiverRole; owner: string | null; profile: string | null }) {
	const link = new URL(`${INVITATION_PATH}/${invitation.token}`, env.PUBLIC_URL).toString()
	const who = invitation.owner ?? 'A Hit Me Helpers member'
	const whose = invitation.profile ? `the emergency medical profile of ${invitation.profile}` : 'an emergency medical profile'
	const can =
		invitation.role === 'editor'
			? 'As an editor you may read and change its medical information, see its scan history, and get its alerts.'
			: 'As a viewer you may read its medical information and get its alerts.'
	return {
		to: invitation.email,
		type: 'caregiver-invitation' as const,
		// A fixed subject: the owner's and the profile's names are in the body only.
		subject: 'You are invited to help keep a medical profile',
		text: [
			'Hello,',
			`${who} invited you to help keep ${whose} on Hit Me Helpers. ${can}`,
			`To accept, open this link within ${INVITATION_DAYS} days, signed in with this address (${invitation.email}). If you have no account yet, create one with this address first:`,
			link,
			'The link works once. If you do not know who this is, ignore this message: nothing is shared until the link is accepted.',
		].join('\n\n'),
	}
}

export type Invitation =
	| { state: 'open'; email: string; role: CaregiverRole; ownerName: string | null; profileName: string | null; expiresAt: Date }
	| { state: 'unknown' | 'accepted' | 'withdrawn' | 'expired' | 'profile-deleted' }

/** What an invitation's link is for, to show before anything happens; every state but `open` says why it cannot be used. */
export async function findInvitation(token: string): Promise<Invitation> {
	const found = token ? await invitationRow(db, token) : null
	if (!found) return { state: 'unknown' }
	const closed = closedState(found.row)
	if (closed) return { state: closed }
	return {
		state: 'open',
		email: found.row.email,
		role: found.row.role,
		ownerName: found.ownerName,
		profileName: found.profileName,
		expiresAt: found.row.expiresAt,
	}
}

async function invitationRow(executor: Executor, token: string, lock = false) {
	const query = executor
		.select({ row: profileCaregivers, ownerName: users.firstName, profileName: medicalProfiles.fullName })
		.from(profileCaregivers)
		.innerJoin(users, eq(users.id, profileCaregivers.ownerUserId))
		.leftJoin(medicalProfiles, eq(medicalProfiles.id, profileCaregivers.medicalProfileId))
		.where(eq(profileCaregivers.tokenHash, hashToken(token)))
	const [found] = lock ? await query.for('update', { of: profileCaregivers }) : await query
	return found ? { ...found, profileName: found.profileName ?? null } : null
}

function closedState(row: typeof profileCaregivers.$inferSelect) {
	if (row.status === 'active' || row.status === 'left') return 'accepted' as const
	if (row.status === 'revoked') return 'withdrawn' as const
	if (row.medicalProfileId === null) return 'profile-deleted' as const
	if (row.expiresAt.getTime() <= Date.now()) return 'expired' as const
	return null
}

/**
 * Accepts the invitation for the signed-in account `userId`, whose e-mail must be the invited address. The link was
 * sent to that address, so opening it signed in as that address also confirms the account's address (as an e-mail
 * change's link does). The token is spent: the invitation is active from now on.
 */
export async function acceptInvitation(token: string, userId: string) {
	const accepted = await db.transaction(async (tx) => {
		const found = await invitationRow(tx, token, true)
		if (!found) throw new DomainError(404, CAREGIVER_MESSAGES.unknown)
		const closed = closedState(found.row)
		if (closed) throw new DomainError(closed === 'profile-deleted' ? 404 : 409, CLOSED_INVITATION[closed])
		const { row } = found
		const profileId = row.medicalProfileId!
		const [user] = await tx.select({ email: users.email, verifiedAt: users.emailVerifiedAt }).from(users).where(eq(users.id, userId))
		if (!user || normalized(user.email) !== row.email) throw new DomainError(403, CAREGIVER_MESSAGES.otherAccount(row.email))
		if (userId === row.ownerUserId) throw new DomainError(400, CAREGIVER_MESSAGES.yourOwn)
		const already = await tx
			.select({ id: profileCaregivers.id })
			.from(profileCaregivers)
			.where(
				and(
					eq(profileCaregivers.medicalProfileId, profileId),
					eq(profileCaregivers.caregiverUserId, userId),
					eq(profileCaregivers.status, 'active'),
				),
			)
		if (already.length) throw new DomainError(409, CAREGIVER_MESSAGES.alreadyHelpingYou)
		if (!user.verifiedAt)
			await tx
				.update(users)
				.set({ emailVerifiedAt: sql`now()` })
				.where(eq(users.id, userId))
		await tx
			.update(profileCaregivers)
			.set({ status: 'active', caregiverUserId: userId, acceptedAt: sql`now()` })
			.where(eq(profileCaregivers.id, row.id))
		await auditChange(tx, {
			profileId,
			ownerUserId: row.ownerUserId,
			actorUserId: userId,
			action: 'caregiver-joined',
			fields: [],
			detail: `#${row.id} ${row.role}`,
		})
		return { profileId, role: row.role, ownerName: found.ownerName }
	})
	return accepted
}

export type Ended = { outcome: 'revoked' } | { outcome: 'left' }

/**
 * Ends a caregiver's part in the profile, at once: the owner revokes anyone (an invitation not yet accepted too), a
 * caregiver may only leave. The profile's row is locked first, as every caregiver's change locks it, so nothing a
 * caregiver started goes through after this.
 */
export async function endCaregiver(userId: string, profileId: number, caregiverId: number): Promise<Ended> {
	return db.transaction(async (tx) => {
		const access = await profileAccess(userId, profileId, 'read', tx)
		const [row] = await tx
			.select()
			.from(profileCaregivers)
			.where(
				and(
					eq(profileCaregivers.id, caregiverId),
					eq(profileCaregivers.medicalProfileId, profileId),
					inArray(profileCaregivers.status, ['pending', 'active']),
				),
			)
			.for('update')
		if (!row) throw new DomainError(404, CAREGIVER_MESSAGES.notFound)
		const leaving = access.role !== 'owner'
		if (leaving && row.caregiverUserId !== userId) throw new DomainError(403, CAREGIVER_MESSAGES.ownerRevokes)
		await tx
			.update(profileCaregivers)
			.set({ status: leaving ? 'left' : 'revoked', endedAt: sql`now()` })
			.where(eq(profileCaregivers.id, row.id))
		await auditChange(tx, {
			profileId,
			ownerUserId: access.ownerId,
			actorUserId: userId,
			action: leaving ? 'caregiver-left' : 'caregiver-revoked',
			fields: [],
			detail: `#${row.id}`,
		})
		return leaving ? { outcome: 'left' as const } : { outcome: 'revoked' as const }
	})
}

export type SharedProfile = {
	id: number
	fullName: string | null
	relationshipToUser: string
	gender: string | null
	dateOfBirth: string | null
	isScannable: boolean
	role: CaregiverRole
	caregiverId: number
	/** The owner's first name: "Shared by Vera". */
	sharedBy: string | null
}

/** The profiles others shared with `userId`, oldest share first: only those, never their owners' other profiles. */
export async function listSharedProfiles(userId: string): Promise<SharedProfile[]> {
	const rows = await db
		.select({
			id: medicalProfiles.id,
			fullName: medicalProfiles.fullName,
			relationshipToUser: medicalProfiles.relationshipToUser,
			gender: medicalProfiles.gender,
			dateOfBirth: medicalProfiles.dateOfBirth,
			isScannable: medicalProfiles.isScannable,
			role: profileCaregivers.role,
			caregiverId: profileCaregivers.id,
			ownerFirstName: users.firstName,
		})
		.from(profileCaregivers)
		.innerJoin(medicalProfiles, eq(medicalProfiles.id, profileCaregivers.medicalProfileId))
		.innerJoin(users, eq(users.id, medicalProfiles.userId))
		.where(and(eq(profileCaregivers.caregiverUserId, userId), eq(profileCaregivers.status, 'active')))
		.orderBy(asc(profileCaregivers.id))
	return rows.map(({ ownerFirstName, ...row }) => ({ ...row, sharedBy: firstNameOf(ownerFirstName) }))
}

const owner = alias(users, 'owner')

/** Who else hears of the profile's scans and alerts: the accounts of its caregivers, with the owner's first name. */
export async function caregiverRecipients(executor: Executor, profileId: number) {
	const rows = await executor
		.select({ userId: users.id, email: users.email, ownerFirstName: owner.firstName })
		.from(profileCaregivers)
		.innerJoin(users, eq(users.id, profileCaregivers.caregiverUserId))
		.innerJoin(owner, eq(owner.id, profileCaregivers.ownerUserId))
		.where(
			and(
				eq(profileCaregivers.medicalProfileId, profileId),
				eq(profileCaregivers.status, 'active'),
				isNotNull(profileCaregivers.caregiverUserId),
			),
		)
		.orderBy(asc(profileCaregivers.id))
	return rows.map((row) => ({ userId: row.userId, email: row.email, ownerName: firstNameOf(row.ownerFirstName) }))
}
