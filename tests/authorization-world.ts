import { randomBytes, randomUUID } from 'node:crypto'
import { and, desc, eq, inArray } from 'drizzle-orm'
import { generateTOTP } from '@epic-web/totp'
import { db } from '#db/client.ts'
import * as s from '#db/schema.ts'
import { confirmEnrolment, startEnrolment } from '#app/domain/admin/owner-two-factor.server.ts'
import { generateBatch } from '#app/domain/admin/batches/batches.server.ts'
import { env } from '#app/utils/env.server.ts'
import { accountKey } from '#app/utils/rate-limit.server.ts'
import { claimCode } from '#app/domain/claims/claims.server.ts'
import { addDocument, saveDnr, savePolicy, uploadPicture } from '#app/domain/profiles/files.server.ts'
import { savePersonalInfo, updateProfileFields } from '#app/domain/profiles/profiles.server.ts'
import {
	AllergySchema,
	ConditionSchema,
	ContactSchema,
	DnrSchema,
	FamilyMemberSchema,
	InsurancePolicySchema,
	MedicationSchema,
	PersonalInfoSchema,
} from '#app/domain/profiles/schemas.ts'
import { addRow } from '#app/domain/profiles/sections.server.ts'
import { keepUpload } from '#app/domain/uploads/pending.server.ts'
import { createHealthLink } from '#app/domain/sharing/health-links.server.ts'
import { acceptInvitation, endCaregiver, inviteCaregiver } from '#app/domain/profiles/caregivers.server.ts'
import { messagesTo } from '#app/adapters/mail.server.ts'
import { proposeImport } from '#app/domain/sharing/import-proposal.ts'
import { buildIps } from '#app/domain/sharing/ips.ts'
import { readBundle } from '#app/domain/sharing/ips-read.ts'
import { listProducts } from '#app/domain/shop/cart.server.ts'
import { appHandler } from './app-handler.ts'
import { createCode, createUser, SAMPLE_FILES, sessionCookie, TEST_GUESSER, uniqueEmail } from './factories.ts'

export const ORIGIN = 'http://localhost:3000'

/**
 * The people of the matrix. The owner's two sessions belong to one account, the one OWNER_EMAIL names. Three more
 * people were invited by A to help keep A's own profile (not A's family member's): an editor, a viewer, and one whose
 * access A revoked.
 */
export const ACTORS = [
	'visitor',
	'userA',
	'userB',
	'owner',
	'ownerNo2fa',
	'caregiverEditor',
	'caregiverViewer',
	'caregiverRevoked',
] as const
export type Actor = (typeof ACTORS)[number]
export const CAREGIVERS = ['caregiverEditor', 'caregiverViewer', 'caregiverRevoked'] as const
export type CaregiverActor = (typeof CAREGIVERS)[number]
export const isCaregiver = (actor: Actor): actor is CaregiverActor => (CAREGIVERS as readonly string[]).includes(actor)

export type Body = { json: unknown } | { form: Record<string, string> } | { multipart: Record<string, string>; files: Record<string, File> }

export type Answer = { status: number; location: string | null; text: string; headers: Headers }

/** A request as a browser on the app's own origin sends it (non-GET requests carry the Origin header the app checks). */
export function request(method: string, path: string, cookie: string | undefined, body?: Body, headers: Record<string, string> = {}) {
	const init: RequestInit & { headers: Record<string, string> } = { method, headers: { ...headers } }
	if (cookie) init.headers.cookie = cookie
	if (method !== 'GET' && method !== 'HEAD') init.headers.origin = ORIGIN
	if (body && 'json' in body) {
		init.headers['content-type'] = 'application/json'
		init.body = JSON.stringify(body.json)
	} else if (body && 'form' in body) {
		init.headers['content-type'] = 'application/x-www-form-urlencoded'
		init.body = new URLSearchParams(body.form)
	} else if (body) {
		const form = new FormData()
		for (const [k, v] of Object.entries(body.multipart)) form.set(k, v)
		for (const [k, f] of Object.entries(body.files)) form.set(k, f)
		init.body = form
	}
	return new Request(new URL(path, ORIGIN), init)
}

/** Sends a request through the app's request handler and reads the whole answer. */
export async function send(method: string, path: string, cookie?: string, body?: Body, headers?: Record<string, string>): Promise<Answer> {
	const handle = await appHandler()
	const response = await handle(request(method, path, cookie, body, headers))
	return { status: response.status, location: response.headers.get('location'), text: await response.text(), headers: response.headers }
}

type Person = { id: string; email: string }
export type People = Record<'userA' | 'userB' | 'owner' | CaregiverActor, Person>

/** Two people, the owner (two-factor sign-in enrolled; OWNER_EMAIL is pointed at it), and the three caregivers-to-be. */
export async function createPeople(): Promise<People> {
	const [userA, userB, owner] = [await createUser(), await createUser(), await createOwner()]
	const [caregiverEditor, caregiverViewer, caregiverRevoked] = [await createUser(), await createUser(), await createUser()]
	return { userA, userB, owner, caregiverEditor, caregiverViewer, caregiverRevoked }
}

/** The link of the newest invitation e-mailed to `email`: its token. */
export async function invitationToken(email: string) {
	const [mail] = await db
		.select({ text: s.emails.textBody })
		.from(s.emails)
		.where(and(messagesTo(email), eq(s.emails.emailType, 'caregiver-invitation')))
		.orderBy(desc(s.emails.id))
		.limit(1)
	return /\/invitations\/([\w-]+)/.exec(mail!.text)![1]!
}

/**
 * Makes `person` a caregiver of A's profile, through the invitation e-mailed to them, as the actor says: an editor, a
 * viewer, or one whose access A then revoked.
 */
export async function shareWith(ownerId: string, profileId: number, person: Person, actor: CaregiverActor) {
	const invited = await inviteCaregiver(ownerId, profileId, {
		email: person.email,
		role: actor === 'caregiverEditor' ? 'editor' : 'viewer',
	})
	await acceptInvitation(await invitationToken(person.email), person.id)
	if (actor === 'caregiverRevoked') await endCaregiver(ownerId, profileId, invited.id)
	return invited.id
}

/** An account with two-factor sign-in enrolled; OWNER_EMAIL is pointed at it. */
async function createOwner() {
	const owner = await createUser()
	env.OWNER_EMAIL = owner.email.toLowerCase()
	const { secret } = await startEnrolment(owner.id, owner.email)
	const { otp } = await generateTOTP({ secret, period: 30, digits: 6, algorithm: 'SHA-1' })
	await confirmEnrolment(owner.id, otp, TEST_GUESSER)
	return owner
}

/**
 * The same people, but the actor's own account is a new one, for a row that deletes the account it acts as. A new
 * owner account gets its two-factor settings as a row (enrolling hashes ten recovery codes, seconds on a busy machine).
 */
export async function withNewAccount(people: People, actor: Actor, sharedProfileId: number): Promise<People> {
	if (actor === 'userA' || actor === 'userB') return { ...people, [actor]: await createUser() }
	if (actor === 'visitor') return people
	if (isCaregiver(actor)) {
		const person = await createUser()
		await shareWith(people.userA.id, sharedProfileId, person, actor)
		return { ...people, [actor]: person }
	}
	const owner = await createUser()
	await db.insert(s.ownerSettings).values({ userId: owner.id, totpSecret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', totpEnabledAt: new Date() })
	return { ...people, owner }
}

/**
 * Clears the per-account counters of the people (wrong PINs, sign-ins, e-mail changes): the matrix makes many more
 * attempts in a minute than a person would, and a limit reached by one row must not decide the next.
 */
export async function resetAccountLimits(people: People) {
	const everyone = Object.values(people)
	const ids = everyone.map((p) => p.id)
	const emails = everyone.map((p) => p.email.toLowerCase())
	const keys = [
		...ids.flatMap((id) =>
			['wrong-pin:user', 'pin-lookup-user', 'email-change-account', 'caregiver-invite-account'].map((bucket) => accountKey(bucket, id)),
		),
		...emails.map((email) => accountKey('signin-account', email)),
	]
	await db.delete(s.rateLimits).where(inArray(s.rateLimits.key, keys))
}

/** A fresh session for one cell: nothing one request leaves in a session (a cart, a PIN, a logout) reaches another. */
export async function cookieFor(people: People, actor: Actor) {
	switch (actor) {
		case 'visitor':
			return undefined
		case 'userA':
			return sessionCookie(people.userA.id)
		case 'userB':
			return sessionCookie(people.userB.id)
		case 'ownerNo2fa':
			return sessionCookie(people.owner.id)
		case 'owner':
			return sessionCookie(people.owner.id, { ownerVerified: { userId: people.owner.id, at: Date.now() } })
		case 'caregiverEditor':
		case 'caregiverViewer':
		case 'caregiverRevoked':
			return sessionCookie(people[actor].id)
	}
}

/** A session of this account that presented ADMIN_TOKEN at /owner-panel (the token is its second factor). */
export function tokenCookie(userId: string) {
	return sessionCookie(userId, { adminTokenValid: true, adminTokenUserId: userId })
}

/** What user A holds, by id, and the strings only A's data contains (no answer to anyone else may show them). */
export type Holdings = {
	profileId: number
	/** A family member's profile: A may delete it (not the last one). */
	familyProfileId: number
	contactId: number
	allergyId: number
	medicationId: number
	conditionId: number
	policyId: number
	documentId: number
	codeId: number
	codeToken: string
	codePin: string
	/** A file A uploaded and has not used yet, as /files/upload/{id}. */
	uploadUrl: string
	uploadId: number
	orderId: string
	orderNumber: string
	donationSession: string
	/** A's active SMART Health Link (of the family member's profile): its id, and the manifest address anyone holding it may ask. */
	healthLinkId: number
	healthLinkManifest: string
	markers: string[]
	/** The markers of A's own profile, the one shared with the caregivers: theirs to see while A lets them. */
	sharedMarkers: string[]
}

export type World = {
	people: People
	a: Holdings
	/** Each signed-in person's own profile, so a form can name "my profile" with someone else's row. */
	ownProfile: Record<Exclude<Actor, 'visitor'>, number>
	/** An invitation to A's profile still waiting for its answer (made for the row that revokes one; 0 elsewhere). */
	pendingCaregiverId: number
	/** The link of an invitation to A's profile, sent to someone who has no account. */
	invitationToken: string
	productId: number
	/** A sticker nobody has claimed. */
	freePin: string
	freeCodeId: number
	qrRequestId: number
	batchId: number
}

const tag = (what: string) => `A${what}${randomBytes(5).toString('hex')}`

/**
 * Gives A a profile with a row in every section, files of every kind, a claimed sticker and a family member's profile,
 * an order and a gift, through the same domain functions the pages and the JSON API call.
 */
export async function furnishA(people: People): Promise<Holdings> {
	const userId = people.userA.id
	const markers: string[] = [people.userA.email]
	const sharedMarkers: string[] = []
	const mark = (what: string) => {
		const m = tag(what)
		markers.push(m)
		return m
	}
	const markShared = (what: string) => {
		const m = mark(what)
		sharedMarkers.push(m)
		return m
	}
	const info = PersonalInfoSchema.parse({ firstName: 'Vera', lastName: markShared('last'), distinguishingMarks: markShared('marks') })
	const { profile } = await savePersonalInfo(userId, info)
	const profileId = profile.id
	const [sticker, familySticker] = [await createCode(), await createCode()]
	const claimant = { userId, address: null }
	const claimed = await claimCode(claimant, sticker.pin, { profileId })
	// A profile A may delete (the last one may not be).
	const family = await claimCode(claimant, familySticker.pin, {
		newProfile: FamilyMemberSchema.parse({ fullName: mark('child'), relationshipToUser: 'child', pin: familySticker.pin }),
	})
	const contact = await addRow(
		userId,
		'contacts',
		profileId,
		ContactSchema.parse({ name: markShared('contact'), relationship: 'Friend', phoneNumber: '+1 555 0100' }),
	)
	const allergy = await addRow(
		userId,
		'allergies',
		profileId,
		AllergySchema.parse({ allergen: markShared('allergen'), severity: 'Severe' }),
	)
	const medication = await addRow(
		userId,
		'medications',
		profileId,
		MedicationSchema.parse({ name: markShared('medication'), dosage: '5 mg' }),
	)
	const condition = await addRow(
		userId,
		'conditions',
		profileId,
		ConditionSchema.parse({ condition: markShared('condition'), status: 'Active' }),
	)
	const policy = await savePolicy(
		userId,
		profileId,
		null,
		InsurancePolicySchema.parse({ provider: markShared('insurer'), policyNumber: 'P-1' }),
		SAMPLE_FILES.png(),
	)
	const document = await addDocument(userId, profileId, SAMPLE_FILES.pdf())
	await uploadPicture(userId, profileId, SAMPLE_FILES.png())
	await updateProfileFields(userId, profileId, { additionalNotes: markShared('notes'), isScannable: true })
	await saveDnr(userId, profileId, DnrSchema.parse({ dnrStatus: 'DNR', dnrOriginalLocation: markShared('dnr') }), SAMPLE_FILES.pdf())
	const pending = await keepUpload(userId, 'document', SAMPLE_FILES.pdf(), 'document')
	// On the family member's profile, new with each furnishing: A's own profile is the same one every time.
	const healthLink = await createHealthLink(userId, family.medicalProfileId, { expires: '30d' })

	const orderId = randomUUID()
	const orderNumber = `HMH-${randomBytes(4).toString('hex').toUpperCase()}`
	const customer = mark('customer')
	await db.insert(s.orders).values({
		id: orderId,
		confirmationNumber: orderNumber,
		userId: people.userA.id,
		customerName: customer,
		customerEmail: people.userA.email,
		subtotalCents: 500,
		totalCents: 0,
		selectedQrCodeId: claimed.qrCodeId,
		shippingAddress: { name: customer, address1: mark('street'), city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' },
	})
	await db.insert(s.orderItems).values({ orderId, name: 'Small Medical QR Sticker (2x2 in)', quantity: 1, unitPriceCents: 500 })
	const donationSession = `cs_test_${randomBytes(12).toString('hex')}`
	await db.insert(s.donations).values({
		userId: people.userA.id,
		donorEmail: people.userA.email,
		amountCents: 2500,
		tier: 'supporter',
		status: 'succeeded',
		checkoutSessionId: donationSession,
		paidAt: new Date(),
	})
	return {
		profileId,
		familyProfileId: family.medicalProfileId,
		contactId: contact.id,
		allergyId: allergy.id,
		medicationId: medication.id,
		conditionId: condition.id,
		policyId: policy.id,
		documentId: document.id,
		codeId: claimed.qrCodeId,
		codeToken: claimed.token,
		codePin: sticker.pin,
		uploadUrl: pending.url,
		uploadId: Number(pending.url.split('/').pop()),
		orderId,
		orderNumber,
		donationSession,
		healthLinkId: healthLink.id,
		healthLinkManifest: healthLink.manifestId,
		markers,
		sharedMarkers,
	}
}

/** A sticker nobody has claimed and a free code request waiting for the owner. */
export async function freshExtras() {
	const free = await createCode()
	const [request] = await db
		.insert(s.qrRequests)
		.values({
			fullName: 'Ada Requester',
			email: uniqueEmail('request'),
			quantity: 1,
			streetAddress: '1 Main St',
			city: 'Springfield',
			state: 'IL',
			postalCode: '62701',
			country: 'US',
		})
		.returning({ id: s.qrRequests.id })
	return { freePin: free.pin, freeCodeId: free.id, qrRequestId: request!.id }
}

/** The people, A's holdings, everyone's own profile, and the owner's things (a free sticker, a request, a batch). */
export async function createWorld(): Promise<World> {
	const people = await createPeople()
	const a = await furnishA(people)
	const own = async (userId: string) => (await savePersonalInfo(userId, PersonalInfoSchema.parse({ firstName: 'Own' }))).profile.id
	const ownerProfile = await own(people.owner.id)
	const [product] = await listProducts('shop')
	const batch = await generateBatch({ count: 1, format: 'svg', createdByUserId: people.owner.id })
	for (const actor of CAREGIVERS) await shareWith(people.userA.id, a.profileId, people[actor], actor)
	const invitee = uniqueEmail('invitee')
	await inviteCaregiver(people.userA.id, a.profileId, { email: invitee, role: 'viewer' })
	return {
		people,
		a,
		ownProfile: {
			userA: a.profileId,
			userB: await own(people.userB.id),
			owner: ownerProfile,
			ownerNo2fa: ownerProfile,
			caregiverEditor: await own(people.caregiverEditor.id),
			caregiverViewer: await own(people.caregiverViewer.id),
			caregiverRevoked: await own(people.caregiverRevoked.id),
		},
		pendingCaregiverId: 0,
		invitationToken: await invitationToken(invitee),
		productId: product!.id,
		batchId: batch.batchId,
		...(await freshExtras()),
	}
}

/**
 * A health summary (a FHIR Bundle) holding one allergy, to fill a profile from, and the id its import proposes for that
 * allergy (the same whichever profile it is proposed to).
 */
export function healthSummary() {
	const bundle = buildIps({
		fullName: 'Summary Person',
		firstName: null,
		middleName: null,
		lastName: null,
		dateOfBirth: null,
		gender: null,
		phoneNumber: null,
		dnrStatus: null,
		dnrDocumentName: null,
		dnrDocumentDate: null,
		dnrOriginalLocation: null,
		emergencyContacts: [],
		allergies: [{ allergen: 'Matrixamide', severity: 'Mild', reaction: null }],
		medications: [],
		medicalConditions: [],
	})
	const empty = { dnrStatus: null, dnrDocumentKey: null, allergies: [], medications: [], medicalConditions: [] }
	return { bundle, allergyId: proposeImport(readBundle(bundle, 'bundle'), empty).allergies[0]!.id }
}
