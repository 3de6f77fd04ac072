import { DomainError } from '#app/utils/errors.ts'
import { and, asc, eq } from 'drizzle-orm'
import { db, type Executor } from '#db/client.ts'
import { allergies, emergencyContacts, insurancePolicies, medicalConditions, medicalDocuments, medications } from '#db/schema.ts'
import { storage } from '#app/adapters/storage.server.ts'
import { confirmProfile, nullify, settle } from './profiles.server.ts'
import { auditCaregiverRead, auditChange, changedFields } from './audit.server.ts'
import { profileAccess, PROFILE_NOT_FOUND, type Need, type ProfileAccess } from './access.server.ts'
import { SECTION_NOUNS } from './audit-labels.ts'
import { CONTACT_ALERT_NEEDS_EMAIL } from './schemas.ts'
import type { Sent } from './vocabularies.ts'

/** Only a contact with an e-mail address can be alerted. */
function checkContactAlert(contact: { alertOptIn?: boolean; email?: string | null }) {
	if (contact.alertOptIn && !contact.email) throw new DomainError(400, CONTACT_ALERT_NEEDS_EMAIL, 'alertOptIn')
}

/**
 * Turns a contact's "I'm helping" alerts on or off. A setting, not information: the profile's "last confirmed" date
 * stays. Recorded like any change of the profile.
 */
export async function setContactAlert(userId: string, contactId: number, alertOptIn: boolean) {
	return db.transaction(async (tx) => {
		const { row: contact, access } = await rowAccess(userId, 'contacts', contactId, 'edit', tx)
		checkContactAlert({ alertOptIn, email: contact.email })
		await tx.update(emergencyContacts).set({ alertOptIn }).where(eq(emergencyContacts.id, contactId))
		await auditChange(tx, {
			profileId: contact.medicalProfileId,
			...by(access),
			action: 'contacts-changed',
			fields: contact.alertOptIn === alertOptIn ? [] : ['alertOptIn'],
			detail: `#${contactId}`,
		})
		return { ...contact, alertOptIn }
	})
}

/** The list sections of a profile; each row belongs to a profile, and through it to one person. */
export const sectionTables = {
	contacts: emergencyContacts,
	allergies,
	medications,
	conditions: medicalConditions,
	policies: insurancePolicies,
	documents: medicalDocuments,
} as const
export type Section = keyof typeof sectionTables
type Table<S extends Section> = (typeof sectionTables)[S]
type Row<S extends Section> = Table<S>['$inferSelect']
export type SectionRow<S extends Section> = Row<S>
type Insert<S extends Section> = Omit<Table<S>['$inferInsert'], 'id' | 'medicalProfileId'>

export { SECTION_NOUNS }

/** Typed as one table for building queries; the rows are typed per section by the callers' signatures. */
const tableOf = (section: Section) => sectionTables[section] as unknown as typeof allergies

/** Who the record names for a change: the profile's owner, and whoever made it. */
const by = (access: ProfileAccess) => ({ ownerUserId: access.ownerId, actorUserId: access.actorId })

export async function listRows<S extends Section>(userId: string, section: S, profileId: number): Promise<Row<S>[]> {
	const table = tableOf(section)
	await auditCaregiverRead(await profileAccess(userId, profileId, 'read'), `${SECTION_NOUNS[section].toLowerCase()} list`)
	return (await db.select().from(table).where(eq(table.medicalProfileId, profileId)).orderBy(asc(table.id))) as Row<S>[]
}

export async function addRow<S extends Section>(
	userId: string,
	section: S,
	profileId: number,
	sent: Sent<Insert<S>>,
	tx: Executor = db,
): Promise<Row<S>> {
	if (tx === db) return db.transaction((inner) => addRow(userId, section, profileId, sent, inner))
	const values = settle(sent, null)
	if (section === 'contacts') checkContactAlert(values as Insert<'contacts'>)
	const table = tableOf(section)
	const access = await profileAccess(userId, profileId, 'edit', tx)
	const [row] = await tx
		.insert(table)
		.values({ ...nullify(values as Record<string, unknown>), medicalProfileId: profileId } as never)
		.returning()
	await confirmProfile(tx, profileId)
	await auditChange(tx, {
		profileId,
		...by(access),
		action: `${section}-added`,
		fields: changedFields(null, values as Record<string, unknown>),
		detail: `#${row!.id}`,
	})
	return row as Row<S>
}

export async function updateRow<S extends Section>(
	userId: string,
	section: S,
	id: number,
	sent: Partial<Sent<Insert<S>>>,
	tx: Executor = db,
): Promise<Row<S>> {
	if (tx === db) return db.transaction((inner) => updateRow(userId, section, id, sent, inner))
	const table = tableOf(section)
	const { row: before, access } = await rowAccess(userId, section, id, 'edit', tx)
	const values = settle(sent, before)
	const [row] = await tx
		.update(table)
		.set(nullify(values as Record<string, unknown>) as never)
		.where(and(eq(table.id, id), eq(table.medicalProfileId, before.medicalProfileId)))
		.returning()
	if (!row) throw new DomainError(404, `${SECTION_NOUNS[section]} not found`)
	const profileId = (row as Row<S>).medicalProfileId
	await confirmProfile(tx, profileId)
	await auditChange(tx, {
		profileId,
		...by(access),
		action: `${section}-changed`,
		fields: changedFields(before as Record<string, unknown>, values as Record<string, unknown>),
		detail: `#${id}`,
	})
	return row as Row<S>
}

/**
 * A row and who `userId` is to its profile, checked against `need` (profileAccess). With `tx`, the profile and then
 * the row are locked until the transaction ends. A row of a profile the person has no part in is "not found", as an id
 * that does not exist.
 */
export async function rowAccess<S extends Section>(
	userId: string,
	section: S,
	id: number,
	need: Need,
	tx?: Executor,
): Promise<{ row: Row<S>; access: ProfileAccess }> {
	const table = tableOf(section)
	const notFound = new DomainError(404, `${SECTION_NOUNS[section]} not found`)
	const [found] = await (tx ?? db).select({ profileId: table.medicalProfileId }).from(table).where(eq(table.id, id))
	if (!found) throw notFound
	const access = await profileAccess(userId, found.profileId, need, tx).catch((error: unknown) => {
		throw error instanceof DomainError && error.message === PROFILE_NOT_FOUND ? notFound : error
	})
	const query = (tx ?? db)
		.select()
		.from(table)
		.where(and(eq(table.id, id), eq(table.medicalProfileId, found.profileId)))
	const [row] = tx ? await query.for('update', { of: table }) : await query
	if (!row) throw notFound
	return { row: row as Row<S>, access }
}

/** A row of a profile the person owns or may edit; with `tx`, locked until the transaction ends. */
export async function getRow<S extends Section>(userId: string, section: S, id: number, tx?: Executor): Promise<Row<S>> {
	return (await rowAccess(userId, section, id, 'edit', tx)).row
}

export async function deleteRow<S extends Section>(userId: string, section: S, id: number): Promise<Row<S>> {
	const table = tableOf(section)
	const row = await db.transaction(async (tx) => {
		const { access } = await rowAccess(userId, section, id, 'edit', tx)
		const [deleted] = await tx.delete(table).where(eq(table.id, id)).returning()
		if (!deleted) throw new DomainError(404, `${SECTION_NOUNS[section]} not found`)
		await confirmProfile(tx, deleted.medicalProfileId)
		await auditChange(tx, {
			profileId: deleted.medicalProfileId,
			...by(access),
			action: `${section}-removed`,
			fields: [],
			detail: `#${id}`,
		})
		return deleted
	})
	// A policy's card photo and a document's file go with their row.
	const { cardFrontPhotoKey, storageKey } = row as { cardFrontPhotoKey?: string | null; storageKey?: string | null }
	const key = cardFrontPhotoKey ?? storageKey
	if (key) await storage.delete(key)
	return row as Row<S>
}
