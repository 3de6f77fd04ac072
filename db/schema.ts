import { relations, sql } from 'drizzle-orm'
import {
	boolean,
	date,
	foreignKey,
	index,
	integer,
	jsonb,
	pgTable,
	primaryKey,
	serial,
	text,
	timestamp,
	uniqueIndex,
	bigserial,
} from 'drizzle-orm/pg-core'

// Column names are snake_case in SQL (casing: 'snake_case' in db/client.ts and drizzle.config.ts).
const createdAt = () => timestamp({ withTimezone: true }).defaultNow().notNull()
const updatedAt = () =>
	timestamp({ withTimezone: true })
		.defaultNow()
		.notNull()
		.$onUpdate(() => new Date())
const day = () => date({ mode: 'string' })

// ---------------------------------------------------------------- accounts

export const users = pgTable(
	'users',
	{
		id: text().primaryKey(),
		email: text().notNull(),
		username: text(),
		passwordHash: text(),
		firstName: text(),
		lastName: text(),
		isGrandfathered: boolean().default(false).notNull(),
		createdAt: createdAt(),
		updatedAt: updatedAt(),
	},
	(t) => [
		uniqueIndex('users_email_unique').on(sql`lower(${t.email})`),
		uniqueIndex('users_username_unique').on(sql`lower(${t.username})`),
	],
)

/** A browser session. The cookie carries only its signed id; `data` holds a guest's pending PIN, cart and flags. */
export const sessions = pgTable(
	'sessions',
	{
		id: text().primaryKey(),
		userId: text().references(() => users.id, { onDelete: 'cascade' }),
		data: jsonb().$type<Record<string, unknown>>().default({}).notNull(),
		expiresAt: timestamp({ withTimezone: true }).notNull(),
		createdAt: createdAt(),
	},
	(t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
)

export const connections = pgTable(
	'connections',
	{
		id: serial().primaryKey(),
		providerName: text().notNull(),
		providerId: text().notNull(),
		userId: text()
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		createdAt: createdAt(),
	},
	(t) => [
		uniqueIndex('connections_provider_unique').on(t.providerName, t.providerId),
		index('connections_user_idx').on(t.userId),
	],
)

/** Fixed-window counters shared by every app instance. */
export const rateLimits = pgTable('rate_limits', {
	key: text().primaryKey(),
	count: integer().notNull(),
	resetAt: timestamp({ withTimezone: true }).notNull(),
})

// ---------------------------------------------------------------- medical profiles

export const medicalProfiles = pgTable(
	'medical_profiles',
	{
		id: serial().primaryKey(),
		userId: text()
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		relationshipToUser: text().default('self').notNull(),
		fullName: text(),
		firstName: text(),
		middleName: text(),
		lastName: text(),
		profilePictureKey: text(),
		dateOfBirth: day(),
		bloodType: text(),
		gender: text(),
		phoneNumber: text(),
		height: text(),
		weight: text(),
		hairColor: text(),
		eyeColor: text(),
		race: text(),
		distinguishingMarks: text(),
		streetAddress: text(),
		city: text(),
		state: text(),
		zipCode: text(),
		insurance: text(),
		dnrStatus: text(),
		dnrDocumentKey: text(),
		dnrDocumentName: text(),
		dnrDocumentDate: day(),
		dnrOriginalLocation: text(),
		additionalNotes: text(),
		isScannable: boolean().default(true).notNull(),
		confirmedAt: timestamp({ withTimezone: true }),
		createdAt: createdAt(),
		updatedAt: updatedAt(),
	},
	(t) => [
		index('medical_profiles_user_idx').on(t.userId, t.id),
		// The target of qr_codes' (medical_profile_id, user_id) key: a code's profile is its owner's.
		uniqueIndex('medical_profiles_id_user_unique').on(t.id, t.userId),
		// The account holder's own profile ('self') is one at most; the own-profile calls touch only it.
		uniqueIndex('medical_profiles_own_unique').on(t.userId).where(sql`${t.relationshipToUser} = 'self'`),
	],
)

const profileId = () =>
	integer()
		.notNull()
		.references(() => medicalProfiles.id, { onDelete: 'cascade' })

export const emergencyContacts = pgTable(
	'emergency_contacts',
	{
		id: serial().primaryKey(),
		medicalProfileId: profileId(),
		name: text().notNull(),
		relationship: text().notNull(),
		phoneNumber: text().notNull(),
		email: text(),
		createdAt: createdAt(),
	},
	(t) => [index('emergency_contacts_profile_idx').on(t.medicalProfileId)],
)

export const allergies = pgTable(
	'allergies',
	{
		id: serial().primaryKey(),
		medicalProfileId: profileId(),
		allergen: text().notNull(),
		severity: text().notNull(),
		reaction: text(),
		createdAt: createdAt(),
	},
	(t) => [index('allergies_profile_idx').on(t.medicalProfileId)],
)

export const medications = pgTable(
	'medications',
	{
		id: serial().primaryKey(),
		medicalProfileId: profileId(),
		name: text().notNull(),
		dosage: text(),
		frequency: text(),
		prescribingDoctor: text(),
		startDate: day(),
		createdAt: createdAt(),
		updatedAt: updatedAt(),
	},
	(t) => [index('medications_profile_idx').on(t.medicalProfileId)],
)

export const medicalConditions = pgTable(
	'medical_conditions',
	{
		id: serial().primaryKey(),
		medicalProfileId: profileId(),
		condition: text().notNull(),
		status: text().notNull(),
		diagnosedDate: day(),
		notes: text(),
		createdAt: createdAt(),
		updatedAt: updatedAt(),
	},
	(t) => [index('medical_conditions_profile_idx').on(t.medicalProfileId)],
)

export const insurancePolicies = pgTable(
	'insurance_policies',
	{
		id: serial().primaryKey(),
		medicalProfileId: profileId(),
		provider: text().notNull(),
		policyNumber: text(),
		groupNumber: text(),
		subscriberId: text(),
		subscriberName: text(),
		relationship: text().default('self').notNull(),
		planType: text(),
		effectiveDate: day(),
		expirationDate: day(),
		copay: text(),
		deductible: text(),
		providerPhone: text(),
		cardFrontPhotoKey: text(),
		notes: text(),
		createdAt: createdAt(),
		updatedAt: updatedAt(),
	},
	(t) => [index('insurance_policies_profile_idx').on(t.medicalProfileId)],
)

export const medicalDocuments = pgTable(
	'medical_documents',
	{
		id: serial().primaryKey(),
		medicalProfileId: profileId(),
		fileName: text().notNull(),
		fileType: text().notNull(),
		fileSize: integer().notNull(),
		storageKey: text().notNull(),
		description: text(),
		createdAt: createdAt(),
	},
	(t) => [index('medical_documents_profile_idx').on(t.medicalProfileId)],
)

// ---------------------------------------------------------------- QR codes

export type QrCustomization = {
	color: string
	textColor: string
	circular: boolean
	customText?: string
	transparentBackground?: boolean
}

export const qrCodes = pgTable(
	'qr_codes',
	{
		id: serial().primaryKey(),
		/** What the printed code encodes ({PUBLIC_URL}/scan/{token}); random, never the PIN. */
		token: text().notNull(),
		/** Printed beside the code; claims it. Null for codes generated by a legacy user. */
		pin: text(),
		userId: text().references(() => users.id, { onDelete: 'set null' }),
		/** The one profile this code shows; null shows the neutral page. Always a profile of the code's owner. */
		medicalProfileId: integer(),
		type: text().default('emergency').notNull(),
		accessLevel: text().default('full').notNull(),
		customization: jsonb().$type<QrCustomization>(),
		isActive: boolean().default(true).notNull(),
		source: text().default('batch').notNull(),
		claimedAt: timestamp({ withTimezone: true }),
		expiresAt: timestamp({ withTimezone: true }),
		/** When the owner was last e-mailed about a scan of this code (at most once per 10 minutes). */
		scanAlertSentAt: timestamp({ withTimezone: true }),
		createdAt: createdAt(),
		updatedAt: updatedAt(),
	},
	(t) => [
		uniqueIndex('qr_codes_token_unique').on(t.token),
		uniqueIndex('qr_codes_pin_unique').on(t.pin),
		index('qr_codes_user_idx').on(t.userId),
		index('qr_codes_profile_idx').on(t.medicalProfileId),
		// A code's profile is always one of its owner's. Deleting the profile clears only medical_profile_id: the migration
		// writes ON DELETE SET NULL ("medical_profile_id"), which drizzle cannot express, so the code stays its owner's.
		foreignKey({ name: 'qr_codes_profile_of_owner_fk', columns: [t.medicalProfileId, t.userId], foreignColumns: [medicalProfiles.id, medicalProfiles.userId] }).onDelete('set null'),
	],
)

export const qrScans = pgTable(
	'qr_scans',
	{
		id: serial().primaryKey(),
		qrCodeId: integer()
			.notNull()
			.references(() => qrCodes.id, { onDelete: 'cascade' }),
		scannedAt: timestamp({ withTimezone: true }).defaultNow().notNull(),
		scannerType: text(),
		deviceType: text(),
		isEmergencyAccess: boolean().default(true).notNull(),
		city: text(),
		state: text(),
		country: text(),
		medicalFacility: text(),
		viewDurationSeconds: integer(),
	},
	(t) => [
		index('qr_scans_code_time_idx').on(t.qrCodeId, t.scannedAt),
		index('qr_scans_time_idx').on(t.scannedAt),
	],
)

// ---------------------------------------------------------------- shop

export const products = pgTable('products', {
	id: integer().primaryKey(),
	name: text().notNull(),
	description: text().notNull(),
	category: text().notNull(),
	priceCents: integer().notNull(),
	engraved: boolean().default(false).notNull(),
	supportsTransparent: boolean().default(false).notNull(),
	supportsSticker: boolean().default(false).notNull(),
	/** Size choices (request page stickers), e.g. [{ id: 'small', label: 'Small (2x2 in)' }]. */
	sizes: jsonb().$type<Array<{ id: string; label: string }>>().default([]).notNull(),
	inShop: boolean().default(false).notNull(),
	onRequestPage: boolean().default(false).notNull(),
	sortOrder: integer().default(0).notNull(),
	active: boolean().default(true).notNull(),
})

export type CartItem = {
	productId: number
	quantity: number
	color: string
	addSticker: boolean
	transparentBackground: boolean
	qrShape: 'circular' | 'square'
	customText?: string
	stickerSize?: string
	qrCodeUrl?: string
}

/** Signed-in users' carts; a guest's cart lives in their session. */
export const carts = pgTable('carts', {
	userId: text()
		.primaryKey()
		.references(() => users.id, { onDelete: 'cascade' }),
	items: jsonb().$type<CartItem[]>().default([]).notNull(),
	updatedAt: updatedAt(),
})

export const discounts = pgTable(
	'discounts',
	{
		id: serial().primaryKey(),
		code: text().notNull(),
		type: text().$type<'percentage' | 'fixed'>().notNull(),
		/** Percent for 'percentage', cents for 'fixed'. */
		value: integer().notNull(),
		description: text().notNull(),
		marksFreeOrder: boolean().default(false).notNull(),
		active: boolean().default(true).notNull(),
		expiresAt: timestamp({ withTimezone: true }),
		createdAt: createdAt(),
	},
	(t) => [uniqueIndex('discounts_code_unique').on(sql`upper(${t.code})`)],
)

export type ShippingAddress = {
	name: string
	address1: string
	address2?: string
	city: string
	state?: string
	postalCode: string
	country: string
}

export const orders = pgTable(
	'orders',
	{
		id: text().primaryKey(),
		confirmationNumber: text().notNull(),
		/** Kept when the account is deleted, for the foundation's records. */
		userId: text().references(() => users.id, { onDelete: 'set null' }),
		customerName: text(),
		customerEmail: text().notNull(),
		subtotalCents: integer().notNull(),
		discountCode: text(),
		discountCents: integer().default(0).notNull(),
		shippingCents: integer().default(0).notNull(),
		totalCents: integer().notNull(),
		currency: text().default('usd').notNull(),
		shippingMethod: text(),
		shippingCountry: text(),
		shippingAddress: jsonb().$type<ShippingAddress>(),
		selectedQrCodeId: integer().references(() => qrCodes.id, { onDelete: 'set null' }),
		qrShape: text(),
		orderType: text().default('shop').notNull(),
		isFree: boolean().default(true).notNull(),
		fulfillmentStatus: text().default('pending').notNull(),
		paymentStatus: text().default('completed').notNull(),
		paymentSessionId: text(),
		/** The same checkout submitted twice yields one order. */
		idempotencyKey: text(),
		fulfilledAt: timestamp({ withTimezone: true }),
		shippedAt: timestamp({ withTimezone: true }),
		createdAt: createdAt(),
		updatedAt: updatedAt(),
	},
	(t) => [
		uniqueIndex('orders_confirmation_unique').on(t.confirmationNumber),
		uniqueIndex('orders_idempotency_unique').on(t.idempotencyKey),
		index('orders_user_idx').on(t.userId),
		index('orders_created_idx').on(t.createdAt),
		index('orders_status_idx').on(t.fulfillmentStatus),
	],
)

export const orderItems = pgTable(
	'order_items',
	{
		id: serial().primaryKey(),
		orderId: text()
			.notNull()
			.references(() => orders.id, { onDelete: 'cascade' }),
		productId: integer().references(() => products.id, { onDelete: 'set null' }),
		name: text().notNull(),
		quantity: integer().notNull(),
		unitPriceCents: integer().notNull(),
		color: text(),
		addSticker: boolean().default(false).notNull(),
		transparentBackground: boolean().default(false).notNull(),
		qrShape: text(),
		customText: text(),
		stickerSize: text(),
		qrCodeUrl: text(),
	},
	(t) => [index('order_items_order_idx').on(t.orderId)],
)

/** QR codes the owner assigned to an order during fulfilment. */
export const orderAssignedCodes = pgTable(
	'order_assigned_codes',
	{
		orderId: text()
			.notNull()
			.references(() => orders.id, { onDelete: 'cascade' }),
		qrCodeId: integer()
			.notNull()
			.references(() => qrCodes.id, { onDelete: 'cascade' }),
		assignedAt: createdAt(),
	},
	(t) => [primaryKey({ columns: [t.orderId, t.qrCodeId] })],
)

// ---------------------------------------------------------------- giving

export const donations = pgTable(
	'donations',
	{
		id: serial().primaryKey(),
		userId: text().references(() => users.id, { onDelete: 'set null' }),
		donorEmail: text(),
		donorName: text(),
		amountCents: integer().notNull(),
		currency: text().default('usd').notNull(),
		tier: text().notNull(),
		status: text().default('pending').notNull(),
		paymentIntentId: text(),
		createdAt: createdAt(),
		updatedAt: updatedAt(),
	},
	(t) => [
		uniqueIndex('donations_payment_intent_unique').on(t.paymentIntentId),
		index('donations_created_idx').on(t.createdAt),
	],
)

export const subscriptions = pgTable(
	'subscriptions',
	{
		id: serial().primaryKey(),
		userId: text()
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		plan: text().notNull(),
		status: text().default('incomplete').notNull(),
		providerSubscriptionId: text(),
		currentPeriodEnd: timestamp({ withTimezone: true }),
		createdAt: createdAt(),
		updatedAt: updatedAt(),
	},
	(t) => [
		uniqueIndex('subscriptions_provider_unique').on(t.providerSubscriptionId),
		index('subscriptions_user_idx').on(t.userId),
	],
)

/** Payment-provider webhook events already handled (webhooks are retried). */
export const paymentEvents = pgTable('payment_events', {
	id: text().primaryKey(),
	type: text().notNull(),
	receivedAt: createdAt(),
})

// ---------------------------------------------------------------- free QR requests by mail

export const qrRequests = pgTable(
	'qr_requests',
	{
		id: serial().primaryKey(),
		userId: text().references(() => users.id, { onDelete: 'set null' }),
		fullName: text().notNull(),
		email: text().notNull(),
		quantity: integer().notNull(),
		streetAddress: text().notNull(),
		city: text().notNull(),
		state: text().notNull(),
		postalCode: text().notNull(),
		country: text().notNull(),
		notes: text(),
		requestStatus: text().default('pending').notNull(),
		fulfilledAt: timestamp({ withTimezone: true }),
		createdAt: createdAt(),
	},
	(t) => [index('qr_requests_status_idx').on(t.requestStatus, t.createdAt)],
)

// ---------------------------------------------------------------- consent

export const consentTexts = pgTable(
	'consent_texts',
	{
		id: serial().primaryKey(),
		consentType: text().notNull(),
		version: integer().notNull(),
		title: text().notNull(),
		body: text().notNull(),
		createdAt: createdAt(),
	},
	(t) => [uniqueIndex('consent_texts_type_version_unique').on(t.consentType, t.version)],
)

export const consents = pgTable(
	'consents',
	{
		id: serial().primaryKey(),
		userId: text()
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		consentType: text().notNull(),
		version: integer().notNull(),
		agreed: boolean().notNull(),
		ipAddress: text(),
		userAgent: text(),
		createdAt: createdAt(),
	},
	(t) => [index('consents_user_type_idx').on(t.userId, t.consentType)],
)

// ---------------------------------------------------------------- analytics

export const visits = pgTable(
	'visits',
	{
		id: bigserial({ mode: 'number' }).primaryKey(),
		path: text().notNull(),
		visitorId: text(),
		userId: text().references(() => users.id, { onDelete: 'set null' }),
		ipAddress: text(),
		userAgent: text(),
		browser: text(),
		deviceType: text(),
		isBot: boolean().default(false).notNull(),
		isOwner: boolean().default(false).notNull(),
		referrer: text(),
		emailId: integer().references(() => emails.id, { onDelete: 'set null' }),
		visitedAt: timestamp({ withTimezone: true }).defaultNow().notNull(),
	},
	(t) => [index('visits_time_idx').on(t.visitedAt), index('visits_email_idx').on(t.emailId)],
)

export const emails = pgTable(
	'emails',
	{
		id: serial().primaryKey(),
		userId: text().references(() => users.id, { onDelete: 'set null' }),
		toAddress: text().notNull(),
		emailType: text().notNull(),
		subject: text().notNull(),
		textBody: text().notNull(),
		htmlBody: text(),
		/** pending → sent, or failed after the last attempt; pending rows are retried. */
		status: text().default('pending').notNull(),
		attempts: integer().default(0).notNull(),
		lastError: text(),
		nextAttemptAt: timestamp({ withTimezone: true }).defaultNow().notNull(),
		trackingId: text().notNull(),
		sentAt: timestamp({ withTimezone: true }),
		createdAt: createdAt(),
	},
	(t) => [
		uniqueIndex('emails_tracking_unique').on(t.trackingId),
		index('emails_status_idx').on(t.status, t.nextAttemptAt),
		index('emails_created_idx').on(t.createdAt),
	],
)

export const emailEvents = pgTable(
	'email_events',
	{
		id: serial().primaryKey(),
		emailId: integer()
			.notNull()
			.references(() => emails.id, { onDelete: 'cascade' }),
		type: text().$type<'open' | 'click'>().notNull(),
		url: text(),
		createdAt: createdAt(),
	},
	(t) => [index('email_events_email_idx').on(t.emailId)],
)

export const auditLog = pgTable(
	'audit_log',
	{
		id: bigserial({ mode: 'number' }).primaryKey(),
		actorUserId: text().references(() => users.id, { onDelete: 'set null' }),
		action: text().notNull(),
		subjectType: text(),
		subjectId: text(),
		details: jsonb().$type<Record<string, unknown>>(),
		ipAddress: text(),
		createdAt: createdAt(),
	},
	(t) => [index('audit_log_time_idx').on(t.createdAt)],
)

// ---------------------------------------------------------------- relations (for nested reads)

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

export type User = typeof users.$inferSelect
export type MedicalProfile = typeof medicalProfiles.$inferSelect
export type QrCode = typeof qrCodes.$inferSelect
export type Order = typeof orders.$inferSelect
