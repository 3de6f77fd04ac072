import { z } from 'zod'
import { PIN_LENGTH } from '#app/domain/accounts/schemas.ts'
import {
	BLOOD_TYPE,
	CONDITION_STATUS,
	DNR_STATUS,
	GENDER,
	PLAN_TYPE,
	POLICY_RELATIONSHIP,
	RELATIONSHIP,
	SEVERITY,
	Unlisted,
	type Vocabulary,
} from './vocabularies.ts'

// The option lists and labels are zod-free, so the browser can use them without zod.
export * from './labels.ts'

// Client-safe: the forms, the page actions and the JSON endpoints share these (spec 001 §3, §5).

/** Optional text: trimmed, empty becomes undefined (cleared), with a length cap. */
const text = (max = 200) =>
	z.preprocess(
		(v) => (typeof v === 'string' ? v.trim() || undefined : (v ?? undefined)),
		z.string().max(max, `Please use at most ${max} characters`).optional(),
	)
const required = (message: string, max = 200) =>
	z.preprocess(
		(v) => (typeof v === 'string' ? v.trim() : v),
		z.string({ error: message }).min(1, message).max(max, `Please use at most ${max} characters`),
	)
const blank = (v: unknown) => (v === '' || v == null ? undefined : v)
const CHOOSE = 'Please choose one of the options'
/** A value of the vocabulary, in any spelling the spec uses, read as the stored value; anything else is refused. */
const oneOf = <V extends string>(vocabulary: Vocabulary<V>, message = CHOOSE) =>
	z.string({ error: message }).transform((v, ctx) => {
		const value = vocabulary.read(v)
		if (value !== undefined) return value
		ctx.addIssue({ code: 'custom', message, input: v })
		return z.NEVER
	})
/**
 * For a field a form edits: a value outside the vocabulary is what the form was given to show (a stored value it does
 * not know), sent back; the save keeps it if the field still holds it and refuses it otherwise (see Unlisted).
 */
const oneOfOrKept = <V extends string>(vocabulary: Vocabulary<V>, message = CHOOSE) =>
	z
		.string({ error: message })
		.max(200, message)
		.transform((v): V | Unlisted => vocabulary.read(v) ?? new Unlisted(v, message))
const date = z.preprocess((v) => (v === '' || v == null ? undefined : v), z.iso.date({ error: 'Please enter a valid date' }).optional())
const pastDate = date.refine((v) => !v || v <= new Date().toISOString().slice(0, 10), 'The date cannot be in the future')
const PHONE = /^[+()\d\s.\-x]{3,40}$/i
const PHONE_MESSAGE = 'Please enter a valid phone number'
const requiredPhone = (message: string) => required(message, 40).refine((v) => PHONE.test(v), PHONE_MESSAGE)
const optionalPhone = () => text(40).refine((v) => !v || PHONE.test(v), PHONE_MESSAGE)
/** A checkbox (absent when unchecked) or a JSON boolean. Absent is an answer, so the box is never `required`. */
export const checkbox = z.preprocess((v) => v === true || v === 'true' || v === 'on', z.boolean()).default(false)

export const PersonalInfoSchema = z.object({
	firstName: text(100),
	middleName: text(100),
	lastName: text(100),
	dateOfBirth: pastDate,
	bloodType: z.preprocess(blank, oneOfOrKept(BLOOD_TYPE).optional()),
	gender: z.preprocess(blank, oneOfOrKept(GENDER).optional()),
	phoneNumber: optionalPhone(),
	height: text(40),
	weight: text(40),
	hairColor: text(40),
	eyeColor: text(40),
	race: text(60),
	distinguishingMarks: text(500),
	streetAddress: text(200),
	city: text(100),
	state: text(100),
	zipCode: text(20),
	insurance: text(200),
})
export type PersonalInfo = z.infer<typeof PersonalInfoSchema>

export const FamilyMemberSchema = z.object({
	fullName: required('Name is required', 120),
	relationshipToUser: oneOf(RELATIONSHIP, 'Please choose a relationship'),
	gender: z.preprocess(blank, oneOf(GENDER).optional()),
	dateOfBirth: pastDate,
	pin: z.preprocess(
		(v) => (typeof v === 'string' ? v.trim().toUpperCase() : v),
		z.string({ error: 'PIN must be 8 characters' }).length(PIN_LENGTH, 'PIN must be 8 characters'),
	),
})

export const ContactSchema = z.object({
	name: required('Name is required', 120),
	relationship: required('Relationship is required', 60),
	phoneNumber: requiredPhone('Phone number is required'),
	email: z.preprocess(
		(v) => (typeof v === 'string' ? v.trim() || undefined : (v ?? undefined)),
		z.email('Please enter a valid email address').max(254).optional(),
	),
	alertOptIn: checkbox,
})

export const AllergySchema = z.object({
	allergen: required('Allergen is required', 120),
	severity: z.preprocess(blank, oneOf(SEVERITY, 'Severity is required')),
	reaction: text(300),
})

export const MedicationSchema = z.object({
	name: required('Medication name is required', 120),
	dosage: text(100),
	frequency: text(100),
	prescribingDoctor: text(120),
	startDate: pastDate,
})

export const ConditionSchema = z.object({
	condition: required('Condition is required', 160),
	status: z.preprocess(blank, oneOfOrKept(CONDITION_STATUS, 'Status is required')),
	diagnosedDate: pastDate,
	notes: text(1000),
})

export const InsurancePolicySchema = z.object({
	provider: required('Insurance company name is required', 120),
	policyNumber: text(60),
	groupNumber: text(60),
	subscriberId: text(60),
	subscriberName: text(120),
	relationship: z.preprocess((v) => blank(v) ?? 'self', oneOfOrKept(POLICY_RELATIONSHIP)),
	planType: z.preprocess(blank, oneOfOrKept(PLAN_TYPE).optional()),
	effectiveDate: date,
	expirationDate: date,
	copay: text(40),
	deductible: text(40),
	providerPhone: optionalPhone(),
	notes: text(1000),
})

/** Spec 001 §8 'Create Profile First': a section added before any profile exists. */
export const CREATE_PROFILE_FIRST =
	'Please save your basic medical profile information before adding emergency contacts/allergies/medications/medical conditions.'

export const DNR_DOCUMENT_REQUIRED = 'Please upload a document for DNR or POLST status'

export const DnrSchema = z.object({
	dnrStatus: oneOfOrKept(DNR_STATUS, 'Please choose a DNR status'),
	dnrDocumentDate: pastDate,
	dnrOriginalLocation: text(200),
})

export const NotesSchema = z.object({ additionalNotes: text(5000) })

/** The page's checkbox: present ('on') or absent. */
export const ScanningSchema = z.object({ isScannable: checkbox })

/** Whether a contact is e-mailed when a responder says they are helping (it needs an e-mail address). */
export const ContactAlertSchema = z.object({ alertOptIn: checkbox })
export const CONTACT_ALERT_NEEDS_EMAIL = 'Add an email address to alert this contact'

/** A JSON client's switch: a boolean (or its spelling in a form body), nothing else. */
export const ScanningSwitchSchema = z.object({
	isScannable: z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')], {
		error: 'isScannable must be true or false',
	}),
})

/** A file field of the JSON API: the URL an upload answered with (or the file's current URL), or empty to remove it. */
const fileUrlField = (field: string) =>
	z.preprocess(
		(v) => (v === '' ? null : v),
		z
			.string({ error: `${field} must be a url or null` })
			.max(2000, `${field} is too long`)
			.nullable(),
	)

/** Spec 001 §3: the profile detail's fields beyond Personal Information, as the JSON API's PUT and PATCH take them. */
export const ProfileDetailExtrasSchema = z
	.object({
		profilePictureUrl: fileUrlField('profilePictureUrl'),
		dnrStatus: z.preprocess((v) => (v === '' ? null : v), oneOfOrKept(DNR_STATUS, 'Please choose a DNR status').nullable()),
		dnrDocumentUrl: fileUrlField('dnrDocumentUrl'),
		dnrDocumentName: z.preprocess((v) => (v === null ? undefined : v), text(200)),
		additionalNotes: NotesSchema.shape.additionalNotes,
		isScannable: ScanningSwitchSchema.shape.isScannable,
	})
	.partial()

/** POST /api/medical-documents: the URL /api/upload-document answered; type and size are the stored file's own. */
export const DocumentLinkSchema = z.object({
	fileUrl: z.string({ error: 'fileUrl is required' }).min(1, 'fileUrl is required').max(2000, 'fileUrl is too long'),
	fileName: text(255),
	description: text(500),
})

export const MAX_ID = 2_147_483_647

/**
 * A row id: a PostgreSQL integer, as a JSON number or written in decimal digits. `true`, `"0x10"`, `"1e3"` or a number
 * past the integer range are refused here, never coerced or left for the database to refuse.
 */
export function idSchema(message = 'Not found') {
	return z.preprocess(
		(value) => (typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value),
		z.number({ error: message }).int(message).positive(message).max(MAX_ID, message),
	)
}

export const IdSchema = idSchema()
