import { and, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import { db, type Executor } from '#db/client.ts'
import { medicalProfiles, profileAudit, users, type PROFILE_AUDIT_ROLES } from '#db/schema.ts'
import { requestScope } from '#app/utils/request-scope.server.ts'

export type AuditRole = (typeof PROFILE_AUDIT_ROLES)[number]

/** The names of the fields whose values differ; dates and numbers compare by value. */
export function changedFields(before: Record<string, unknown> | null, after: Record<string, unknown>) {
	return Object.keys(after)
		.filter((key) => !IGNORED.has(key) && after[key] !== undefined)
		.filter((key) => !before || comparable(before[key]) !== comparable(after[key]))
}
const IGNORED = new Set(['id', 'userId', 'medicalProfileId', 'createdAt', 'updatedAt', 'confirmedAt', 'fullName'])
const comparable = (value: unknown) => (value instanceof Date ? value.toISOString() : value == null || value === '' ? null : String(value))

/**
 * A change of a profile's medical data, made by its own account or by a caregiver the owner shared it with
 * (`actorUserId`, when it is not the owner), written in the caller's transaction so the record and the change stand or
 * fall together. Where it came from is the request's.
 */
export async function auditChange(
	executor: Executor,
	change: { profileId: number; ownerUserId: string; actorUserId?: string; action: string; fields: string[]; detail?: string | null },
) {
	const scope = requestScope()
	const actor = change.actorUserId ?? change.ownerUserId
	await executor.insert(profileAudit).values({
		kind: 'change',
		action: change.action,
		profileId: change.profileId,
		ownerUserId: change.ownerUserId,
		actorUserId: actor,
		actorRole: actor === change.ownerUserId ? 'owner' : 'caregiver',
		ipAddress: scope?.ipAddress ?? null,
		place: scope?.place ?? null,
		fields: change.fields,
		detail: change.detail ?? null,
	})
}

export type ProfileRead = {
	/**
	 * A scan and what it opened; a SMART Health Link's manifest given, or refused for its passcode; a caregiver reading
	 * the profile, a list of it, one of its files or its scan history (`detail` names which).
	 */
	action: 'scan' | 'scan-photo' | 'scan-dnr' | 'shl-manifest' | 'shl-refused' | 'caregiver-read'
	profileId: number
	ownerUserId: string
	actorUserId: string | null
	role: Exclude<AuditRole, 'owner'>
	ipAddress: string | null
	place: string | null
	detail: string | null
}

/** A read of a profile by someone other than its account. */
export async function auditRead(read: ProfileRead) {
	await db.insert(profileAudit).values({
		kind: 'read',
		action: read.action,
		profileId: read.profileId,
		ownerUserId: read.ownerUserId,
		actorUserId: read.actorUserId,
		actorRole: read.role,
		ipAddress: read.ipAddress,
		place: read.place,
		detail: read.detail,
	})
}

/** What a caregiver read of a profile shared with them; nothing for the owner's own reads, which are not recorded. */
export async function auditCaregiverRead(access: { profile: { id: number }; ownerId: string; actorId: string }, what: string) {
	if (access.actorId === access.ownerId) return
	const scope = requestScope()
	await auditRead({
		action: 'caregiver-read',
		profileId: access.profile.id,
		ownerUserId: access.ownerId,
		actorUserId: access.actorId,
		role: 'caregiver',
		ipAddress: scope?.ipAddress ?? null,
		place: scope?.place ?? null,
		detail: what,
	})
}

export const AUDIT_PAGE_SIZE = 50

/** The account that acted, named for caregivers' entries (the owner sees who changed their profile). */
const actor = alias(users, 'actor')

const entryColumns = {
	id: profileAudit.id,
	occurredAt: profileAudit.occurredAt,
	kind: profileAudit.kind,
	action: profileAudit.action,
	profileId: profileAudit.profileId,
	actorRole: profileAudit.actorRole,
	place: profileAudit.place,
	fields: profileAudit.fields,
	detail: profileAudit.detail,
	profileName: medicalProfiles.fullName,
	actorName: sql<string | null>`nullif(trim(concat_ws(' ', ${actor.firstName}, ${actor.lastName})), '')`,
	actorEmail: actor.email,
}

/**
 * What the account's own profiles went through, newest first, a page at a time (`before`: the last id seen). The
 * person sees where a read came from only as a place, never the reader's address.
 */
export async function accountAudit(ownerUserId: string, filter: { kind?: 'read' | 'change'; before?: number } = {}) {
	const rows = await db
		.select(entryColumns)
		.from(profileAudit)
		.leftJoin(medicalProfiles, and(eq(medicalProfiles.id, profileAudit.profileId), eq(medicalProfiles.userId, ownerUserId)))
		.leftJoin(actor, and(eq(actor.id, profileAudit.actorUserId), eq(profileAudit.actorRole, 'caregiver')))
		.where(
			and(
				eq(profileAudit.ownerUserId, ownerUserId),
				filter.kind ? eq(profileAudit.kind, filter.kind) : undefined,
				filter.before ? lt(profileAudit.id, filter.before) : undefined,
			),
		)
		.orderBy(desc(profileAudit.id))
		.limit(AUDIT_PAGE_SIZE + 1)
	return page(rows)
}

export type AuditFilter = {
	kind?: 'read' | 'change'
	role?: AuditRole
	/** The account's e-mail, exactly (case-insensitive). */
	email?: string
	profileId?: number
	from?: Date
	/** Exclusive. */
	to?: Date
	before?: number
}

/** The whole log for the admin area, with filters, newest first; addresses included. */
export async function searchAudit(filter: AuditFilter) {
	const conditions: Array<SQL | undefined> = [
		filter.kind ? eq(profileAudit.kind, filter.kind) : undefined,
		filter.role ? eq(profileAudit.actorRole, filter.role) : undefined,
		filter.email ? sql`lower(${users.email}) = ${filter.email.toLowerCase()}` : undefined,
		filter.profileId ? eq(profileAudit.profileId, filter.profileId) : undefined,
		filter.from ? gte(profileAudit.occurredAt, filter.from) : undefined,
		filter.to ? lt(profileAudit.occurredAt, filter.to) : undefined,
		filter.before ? lt(profileAudit.id, filter.before) : undefined,
	]
	const rows = await db
		.select({ ...entryColumns, ipAddress: profileAudit.ipAddress, ownerEmail: users.email, actorUserId: profileAudit.actorUserId })
		.from(profileAudit)
		.leftJoin(medicalProfiles, eq(medicalProfiles.id, profileAudit.profileId))
		.leftJoin(users, eq(users.id, profileAudit.ownerUserId))
		.leftJoin(actor, and(eq(actor.id, profileAudit.actorUserId), eq(profileAudit.actorRole, 'caregiver')))
		.where(and(...conditions))
		.orderBy(desc(profileAudit.id))
		.limit(AUDIT_PAGE_SIZE + 1)
	return page(rows)
}

function page<T extends { id: number }>(rows: T[]) {
	const more = rows.length > AUDIT_PAGE_SIZE
	const entries = rows.slice(0, AUDIT_PAGE_SIZE)
	return { entries, nextBefore: more ? entries.at(-1)!.id : null }
}
