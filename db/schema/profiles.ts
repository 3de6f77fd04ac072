import { sql, type BuildExtraConfigColumns } from 'drizzle-orm'
import {
	boolean,
	check,
	index,
	integer,
	pgTable,
	serial,
	text,
	timestamp,
	uniqueIndex,
	type PgColumnBuilderBase,
	type PgTableExtraConfigValue,
} from 'drizzle-orm/pg-core'
import { userKey } from './accounts.ts'
import { createdAt, day, notNegative, oneOf, rowKeys, sealed, timestamps } from './columns.ts'

/** Spec 001 (app/domain/profiles/labels.ts offers the same; a test holds them equal). */
export const DNR_STATUSES = ['None', 'DNR', 'POLST', 'Unknown'] as const
export const CONDITION_STATUSES = ['Active', 'Chronic', 'Managed', 'Resolved', 'Under Treatment'] as const

export const medicalProfiles = pgTable(
	'medical_profiles',
	{
		id: serial().primaryKey(),
		userId: userKey(),
		relationshipToUser: text().default('self').notNull(),
		fullName: sealed('medical_profiles', 'full_name'),
		firstName: sealed('medical_profiles', 'first_name'),
		middleName: sealed('medical_profiles', 'middle_name'),
		lastName: sealed('medical_profiles', 'last_name'),
		profilePictureKey: text(),
		dateOfBirth: sealed('medical_profiles', 'date_of_birth'),
		bloodType: sealed('medical_profiles', 'blood_type'),
		gender: sealed('medical_profiles', 'gender'),
		phoneNumber: sealed('medical_profiles', 'phone_number'),
		height: sealed('medical_profiles', 'height'),
		weight: sealed('medical_profiles', 'weight'),
		hairColor: sealed('medical_profiles', 'hair_color'),
		eyeColor: sealed('medical_profiles', 'eye_color'),
		race: sealed('medical_profiles', 'race'),
		distinguishingMarks: sealed('medical_profiles', 'distinguishing_marks'),
		streetAddress: sealed('medical_profiles', 'street_address'),
		city: sealed('medical_profiles', 'city'),
		state: sealed('medical_profiles', 'state'),
		zipCode: sealed('medical_profiles', 'zip_code'),
		insurance: sealed('medical_profiles', 'insurance'),
		dnrStatus: text().$type<(typeof DNR_STATUSES)[number]>(),
		dnrDocumentKey: text(),
		dnrDocumentName: sealed('medical_profiles', 'dnr_document_name'),
		dnrDocumentDate: day(),
		dnrOriginalLocation: sealed('medical_profiles', 'dnr_original_location'),
		additionalNotes: sealed('medical_profiles', 'additional_notes'),
		isScannable: boolean().default(true).notNull(),
		confirmedAt: timestamp({ withTimezone: true }),
		/** How often the owner is asked to confirm the profile is still correct. */
		reviewIntervalMonths: integer().default(6).notNull(),
		/** When the last review reminder went out: one per due date. */
		reviewRemindedAt: timestamp({ withTimezone: true }),
		/** Whether a responder's "I'm helping" on this profile's codes alerts the owner and opted-in contacts. */
		helpingAlerts: boolean().default(true).notNull(),
		...timestamps(),
	},
	(t) => [
		index('medical_profiles_user_idx').on(t.userId, t.id),
		// The target of qr_codes' (medical_profile_id, user_id) key: a code's profile is its owner's.
		uniqueIndex('medical_profiles_id_user_unique').on(t.id, t.userId),
		// The account holder's own profile ('self') is one at most; the own-profile calls touch only it.
		uniqueIndex('medical_profiles_own_unique')
			.on(t.userId)
			.where(sql`${t.relationshipToUser} = 'self'`),
		check('medical_profiles_dnr_status_check', oneOf(t.dnrStatus, DNR_STATUSES)),
		check('medical_profiles_review_interval_check', sql`${t.reviewIntervalMonths} between 1 and 24`),
	],
)

/** A row of a profile's medical information: deleted with the profile. */
export const profileKey = rowKeys(
	() => integer(),
	() => medicalProfiles.id,
).belongsTo

const sectionBase = () => ({ id: serial().primaryKey(), medicalProfileId: profileKey() })
type SectionColumns<Columns> = ReturnType<typeof sectionBase> & Columns

/**
 * One list of a profile's medical information (allergies, medications, …): rows numbered by `id`, belonging to the
 * profile and found by it; `columns` gets the table's own `sealed` column maker.
 */
function profileSection<Name extends string, Columns extends Record<string, PgColumnBuilderBase>>(
	name: Name,
	columns: (seal: (column: string) => ReturnType<typeof sealed>) => Columns,
	checks: (t: BuildExtraConfigColumns<Name, SectionColumns<Columns>, 'pg'>) => PgTableExtraConfigValue[] = () => [],
) {
	return pgTable(name, { ...sectionBase(), ...columns((column) => sealed(name, column)) }, (t) => [
		index(`${name}_profile_idx`).on(t.medicalProfileId),
		...checks(t),
	])
}

export const emergencyContacts = profileSection('emergency_contacts', (seal) => ({
	name: seal('name').notNull(),
	relationship: text().notNull(),
	phoneNumber: seal('phone_number').notNull(),
	email: seal('email'),
	/** The owner's choice: this contact is e-mailed when a responder says they are helping. */
	alertOptIn: boolean().default(false).notNull(),
	createdAt: createdAt(),
}))

export const allergies = profileSection('allergies', (seal) => ({
	allergen: seal('allergen').notNull(),
	severity: text().notNull(),
	reaction: seal('reaction'),
	createdAt: createdAt(),
}))

export const medications = profileSection('medications', (seal) => ({
	name: seal('name').notNull(),
	dosage: seal('dosage'),
	frequency: seal('frequency'),
	prescribingDoctor: seal('prescribing_doctor'),
	startDate: day(),
	...timestamps(),
}))

export const medicalConditions = profileSection(
	'medical_conditions',
	(seal) => ({
		condition: seal('condition').notNull(),
		status: text().$type<(typeof CONDITION_STATUSES)[number]>().notNull(),
		diagnosedDate: day(),
		notes: seal('notes'),
		...timestamps(),
	}),
	(t) => [check('medical_conditions_status_check', oneOf(t.status, CONDITION_STATUSES))],
)

export const insurancePolicies = profileSection('insurance_policies', (seal) => ({
	provider: seal('provider').notNull(),
	policyNumber: seal('policy_number'),
	groupNumber: seal('group_number'),
	subscriberId: seal('subscriber_id'),
	subscriberName: seal('subscriber_name'),
	relationship: text().default('self').notNull(),
	planType: text(),
	effectiveDate: day(),
	expirationDate: day(),
	copay: seal('copay'),
	deductible: seal('deductible'),
	providerPhone: seal('provider_phone'),
	cardFrontPhotoKey: text(),
	notes: seal('notes'),
	...timestamps(),
}))

export const medicalDocuments = profileSection(
	'medical_documents',
	(seal) => ({
		fileName: seal('file_name').notNull(),
		fileType: text().notNull(),
		fileSize: integer().notNull(),
		storageKey: text().notNull(),
		description: seal('description'),
		createdAt: createdAt(),
	}),
	(t) => [notNegative('medical_documents_file_size_check', t.fileSize)],
)

export const UPLOAD_PURPOSES = ['picture', 'insurance-card', 'document'] as const

/**
 * A file sent before the place it belongs to is saved (spec 001 §7: the client uploads, then sends the URL it got in
 * profilePictureUrl, dnrDocumentUrl, cardFrontPhotoUrl or a medical document's fileUrl). Using it moves the file to
 * that place and removes this row; rows nobody used are pruned.
 */
export const pendingUploads = pgTable(
	'pending_uploads',
	{
		id: serial().primaryKey(),
		userId: userKey(),
		purpose: text().$type<(typeof UPLOAD_PURPOSES)[number]>().notNull(),
		storageKey: text().notNull(),
		fileName: sealed('pending_uploads', 'file_name').notNull(),
		fileType: text().notNull(),
		fileSize: integer().notNull(),
		createdAt: createdAt(),
	},
	(t) => [
		index('pending_uploads_user_idx').on(t.userId, t.createdAt),
		check('pending_uploads_purpose_check', oneOf(t.purpose, UPLOAD_PURPOSES)),
		notNegative('pending_uploads_file_size_check', t.fileSize),
	],
)

export type MedicalProfile = typeof medicalProfiles.$inferSelect
