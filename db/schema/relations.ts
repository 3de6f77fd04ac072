import { relations, type Equal, type One, type Relations } from 'drizzle-orm'
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core'
import { users } from './accounts.ts'
import {
	allergies,
	emergencyContacts,
	insurancePolicies,
	medicalConditions,
	medicalDocuments,
	medicalProfiles,
	medications,
} from './profiles.ts'
import { qrCodes } from './qr.ts'

// Relations for nested reads (db.query...with). Apart from the tables, so no two area files import each other.

export const medicalProfilesRelations = relations(medicalProfiles, ({ many, one }) => ({
	user: one(users, { fields: [medicalProfiles.userId], references: [users.id] }),
	emergencyContacts: many(emergencyContacts),
	allergies: many(allergies),
	medications: many(medications),
	medicalConditions: many(medicalConditions),
	insurancePolicies: many(insurancePolicies),
	medicalDocuments: many(medicalDocuments),
	qrCodes: many(qrCodes),
}))

/** A row of one of a profile's lists, or a code: it belongs to (at most) one profile. */
type ProfileRow = PgTable & { medicalProfileId: AnyPgColumn }
/** The type drizzle gives a table's own `one(medicalProfiles)` relation (required when the column is not null), kept per table. */
type ProfileRelation<Table extends ProfileRow> = Relations<
	Table['_']['name'],
	{ medicalProfile: One<'medical_profiles', Equal<Table['medicalProfileId']['_']['notNull'], true>> }
>

const ofProfile = <Table extends ProfileRow>(table: Table) =>
	relations(table, ({ one }) => ({
		medicalProfile: one(medicalProfiles, { fields: [table.medicalProfileId], references: [medicalProfiles.id] }),
	})) as ProfileRelation<Table>

export const emergencyContactsRelations = ofProfile(emergencyContacts)
export const allergiesRelations = ofProfile(allergies)
export const medicationsRelations = ofProfile(medications)
export const medicalConditionsRelations = ofProfile(medicalConditions)
export const insurancePoliciesRelations = ofProfile(insurancePolicies)
export const medicalDocumentsRelations = ofProfile(medicalDocuments)
export const qrCodesRelations = ofProfile(qrCodes)
