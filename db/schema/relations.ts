import { relations } from 'drizzle-orm'
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
export const emergencyContactsRelations = relations(emergencyContacts, ({ one }) => ({
	medicalProfile: one(medicalProfiles, { fields: [emergencyContacts.medicalProfileId], references: [medicalProfiles.id] }),
}))
export const allergiesRelations = relations(allergies, ({ one }) => ({
	medicalProfile: one(medicalProfiles, { fields: [allergies.medicalProfileId], references: [medicalProfiles.id] }),
}))
export const medicationsRelations = relations(medications, ({ one }) => ({
	medicalProfile: one(medicalProfiles, { fields: [medications.medicalProfileId], references: [medicalProfiles.id] }),
}))
export const medicalConditionsRelations = relations(medicalConditions, ({ one }) => ({
	medicalProfile: one(medicalProfiles, { fields: [medicalConditions.medicalProfileId], references: [medicalProfiles.id] }),
}))
export const insurancePoliciesRelations = relations(insurancePolicies, ({ one }) => ({
	medicalProfile: one(medicalProfiles, { fields: [insurancePolicies.medicalProfileId], references: [medicalProfiles.id] }),
}))
export const medicalDocumentsRelations = relations(medicalDocuments, ({ one }) => ({
	medicalProfile: one(medicalProfiles, { fields: [medicalDocuments.medicalProfileId], references: [medicalProfiles.id] }),
}))
export const qrCodesRelations = relations(qrCodes, ({ one }) => ({
	medicalProfile: one(medicalProfiles, { fields: [qrCodes.medicalProfileId], references: [medicalProfiles.id] }),
}))
