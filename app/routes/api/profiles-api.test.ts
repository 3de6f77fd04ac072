import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { db } from '#db/client.ts'
import * as s from '#db/schema.ts'
import { claimCode } from '#app/domain/claims/claims.server.ts'
import { CREATE_PROFILE_FIRST } from '#app/domain/profiles/schemas.ts'
import { UPLOAD_RULES } from '#app/domain/uploads/file-type.ts'
import * as allergiesApi from '#app/routes/api/allergies.ts'
import * as contactsApi from '#app/routes/api/emergency-contacts.ts'
import * as policiesApi from '#app/routes/api/insurance-policies.ts'
import * as conditionsApi from '#app/routes/api/medical-conditions.ts'
import * as documentsApi from '#app/routes/api/medical-documents.ts'
import * as profileApi from '#app/routes/api/medical-profile.ts'
import * as profilesApi from '#app/routes/api/medical-profiles.ts'
import * as medicationsApi from '#app/routes/api/medications.ts'
import * as uploadDocumentApi from '#app/routes/api/upload-document.ts'
import * as uploadPictureApi from '#app/routes/api/upload-profile-picture.ts'
import * as uploadApi from '#app/routes/api/upload.ts'
import * as accessLevelApi from '#app/routes/api/user-access-level.ts'
import { get, json, send, upload, type Endpoint } from '#tests/api.ts'
import {
	claimant,
	createCode,
	createUser,
	getRequest,
	jsonRequest,
	multipartRequest,
	SAMPLE_FILES,
	sessionCookie,
} from '#tests/factories.ts'

/** Files stored under one person's prefix (the local storage adapter under DATA_DIR). */
function filesOf(userId: string) {
	const dir = join(process.env.DATA_DIR!, 'uploads', 'users', userId)
	if (!existsSync(dir)) return 0
	return readdirSync(dir, { recursive: true }).filter((f) => !String(f).endsWith('.json') && String(f).includes('.')).length
}

async function person() {
	const user = await createUser()
	return { user, cookie: await sessionCookie(user.id) }
}

async function withProfile() {
	const p = await person()
	const created = await json(profileApi.action, 'POST', '/api/medical-profile', { firstName: 'Ada', lastName: 'Lovelace' }, p.cookie)
	expect(created.status).toBe(201)
	const profileId = created.body.id as number
	return { ...p, profileId, pid: String(profileId) }
}

const SECTIONS = [
	{
		api: contactsApi,
		path: '/api/emergency-contacts',
		create: { name: 'Bob', relationship: 'Brother', phoneNumber: '555 0100' },
		update: null,
	},
	{ api: allergiesApi, path: '/api/allergies', create: { allergen: 'Latex', severity: 'Severe', reaction: 'Hives' }, update: null },
	{
		api: medicationsApi,
		path: '/api/medications',
		create: { name: 'Warfarin', dosage: '5 mg' },
		update: { name: 'Warfarin', dosage: '7.5 mg' },
	},
	{
		api: conditionsApi,
		path: '/api/medical-conditions',
		create: { condition: 'Epilepsy', status: 'Active' },
		update: { condition: 'Epilepsy', status: 'Managed' },
	},
	{
		api: policiesApi,
		path: '/api/insurance-policies',
		create: { provider: 'Acme Health', planType: 'PPO' },
		update: { provider: 'Acme Health', planType: 'HMO' },
	},
] as const

describe('signed out', () => {
	test('every endpoint answers 401 JSON', async () => {
		const id = { id: '1' }
		const attempts: Array<[Endpoint, Request, Record<string, string>?]> = [
			[profilesApi.loader, getRequest('/api/medical-profiles')],
			[profileApi.loader, getRequest('/api/medical-profile')],
			[profileApi.loader, getRequest('/api/medical-profile/1'), id],
			[profileApi.action, jsonRequest('/api/medical-profile', { firstName: 'Ada' })],
			...['PUT', 'PATCH', 'DELETE'].map((method): [Endpoint, Request, Record<string, string>] => [
				profileApi.action,
				jsonRequest('/api/medical-profile/1', {}, { method }),
				id,
			]),
			...[...SECTIONS, { api: documentsApi, path: '/api/medical-documents', update: null }].flatMap(
				({ api, path, update }): Array<[Endpoint, Request, Record<string, string>?]> => [
					[api.loader, getRequest(`${path}?profileId=1`)],
					...(api === documentsApi ? [] : [[api.action, jsonRequest(path, { medicalProfileId: 1 })] as [Endpoint, Request]]),
					...(update
						? [[api.action, jsonRequest(`${path}/1`, update, { method: 'PUT' }), id] as [Endpoint, Request, Record<string, string>]]
						: []),
					[api.action, jsonRequest(`${path}/1`, {}, { method: 'DELETE' }), id],
				],
			),
			[uploadApi.action, multipartRequest('/api/upload', { type: 'insurance-card', policyId: '1' }, { file: SAMPLE_FILES.png() })],
			[uploadDocumentApi.action, multipartRequest('/api/upload-document', { medicalProfileId: '1' }, { document: SAMPLE_FILES.pdf() })],
			[
				uploadPictureApi.action,
				multipartRequest('/api/upload-profile-picture', { medicalProfileId: '1' }, { picture: SAMPLE_FILES.png() }),
			],
			[accessLevelApi.loader, getRequest('/api/user/access-level')],
		]
		expect(attempts.length).toBe(31)
		for (const [handler, request, params] of attempts) {
			const response = await send(handler, request, params)
			expect(response, `${request.method} ${request.url}`).toMatchObject({ status: 401, body: { message: 'Unauthorized' } })
		}
	})
})

describe('medical profiles', () => {
	test('POST creates the own profile (201), then updates it (200); GET reads it back', async () => {
		const { user, cookie } = await person()
		expect((await get(profileApi.loader, '/api/medical-profile', cookie)).status).toBe(404)
		const created = await json(
			profileApi.action,
			'POST',
			'/api/medical-profile',
			{ firstName: 'Ada', lastName: 'Lovelace', bloodType: 'O-' },
			cookie,
		)
		expect(created).toMatchObject({ status: 201, body: { fullName: 'Ada Lovelace' } })
		const again = await json(
			profileApi.action,
			'POST',
			'/api/medical-profile',
			{ firstName: 'Ada', lastName: 'King', bloodType: '' },
			cookie,
		)
		expect(again).toMatchObject({ status: 200, body: { id: created.body.id, fullName: 'Ada King' } })
		expect(await db.select().from(s.medicalProfiles).where(eq(s.medicalProfiles.userId, user.id))).toHaveLength(1)

		const own = await get(profileApi.loader, '/api/medical-profile', cookie)
		expect(own).toMatchObject({
			status: 200,
			body: { id: created.body.id, fullName: 'Ada King', relationshipToUser: 'self', bloodType: null, isScannable: true },
		})
		const list = await get(profilesApi.loader, '/api/medical-profiles', cookie)
		expect(list.body).toEqual([
			expect.objectContaining({ id: created.body.id, fullName: 'Ada King', relationshipToUser: 'self', qrCodeCount: 0 }),
		])
	})

	test('GET /api/medical-profile/{id} answers the screen shape, with file URLs and no storage keys', async () => {
		const { cookie, pid, profileId } = await withProfile()
		await upload(uploadPictureApi.action, '/api/upload-profile-picture', { medicalProfileId: pid }, { picture: SAMPLE_FILES.png() }, cookie)
		const detail = await get(profileApi.loader, `/api/medical-profile/${pid}`, cookie, { id: pid })
		expect(detail.status).toBe(200)
		expect(detail.body).toMatchObject({
			id: profileId,
			fullName: 'Ada Lovelace',
			profilePictureUrl: `/files/picture/${pid}`,
			dnrDocumentUrl: null,
		})
		for (const list of ['emergencyContacts', 'allergies', 'medications', 'medicalConditions', 'insurancePolicies', 'medicalDocuments'])
			expect(detail.body[list]).toEqual([])
		expect(JSON.stringify(detail.body)).not.toMatch(/Key|users\//)
	})

	test('a family member with a PIN is created and claims the sticker; a bad PIN is a 400 and creates nothing', async () => {
		const { user, cookie } = await withProfile()
		const code = await createCode()
		const created = await json(
			profileApi.action,
			'POST',
			'/api/medical-profile',
			{ fullName: 'Grace', relationshipToUser: 'child', gender: 'female', pin: code.pin.toLowerCase() },
			cookie,
		)
		expect(created).toMatchObject({ status: 201, body: { fullName: 'Grace' } })
		expect(await db.query.qrCodes.findFirst({ where: eq(s.qrCodes.pin, code.pin) })).toMatchObject({
			userId: user.id,
			medicalProfileId: created.body.id,
		})

		const refused = await json(
			profileApi.action,
			'POST',
			'/api/medical-profile',
			{ fullName: 'Again', relationshipToUser: 'child', pin: code.pin },
			cookie,
		)
		expect(refused).toMatchObject({
			status: 400,
			body: { message: 'Invalid or already claimed PIN', errors: { pin: ['Invalid or already claimed PIN'] } },
		})
		expect(await db.select().from(s.medicalProfiles).where(eq(s.medicalProfiles.userId, user.id))).toHaveLength(2)
	})

	test('PUT updates the detail fields; bad values are a 400 with field messages and change nothing', async () => {
		const { cookie, pid } = await withProfile()
		const put = (body: unknown) => json(profileApi.action, 'PUT', `/api/medical-profile/${pid}`, body, cookie, { id: pid })
		const updated = await put({ firstName: 'Ada', lastName: 'King', bloodType: 'AB+', city: 'London' })
		expect(updated).toMatchObject({ status: 200, body: { fullName: 'Ada King', bloodType: 'AB+', city: 'London' } })
		// A field left out stays as it is; an empty string or null clears it.
		expect(await put({ city: null, height: '170 cm' })).toMatchObject({
			body: { fullName: 'Ada King', bloodType: 'AB+', city: null, height: '170 cm' },
		})
		// Nothing to change is still a save: the owner confirms the profile as it is.
		expect(await put({})).toMatchObject({ status: 200, body: { fullName: 'Ada King', city: null } })
		const bad = await put({ firstName: 'Ada', bloodType: 'Z+', dateOfBirth: '2999-01-01' })
		expect(bad).toMatchObject({
			status: 400,
			body: { errors: { bloodType: ['Please choose one of the options'], dateOfBirth: ['The date cannot be in the future'] } },
		})
		expect((await get(profileApi.loader, `/api/medical-profile/${pid}`, cookie, { id: pid })).body).toMatchObject({ bloodType: 'AB+' })
	})

	test('PATCH turns scanning off and saves, then clears, the notes', async () => {
		const { cookie, pid, profileId } = await withProfile()
		const patch = (body: unknown) => json(profileApi.action, 'PATCH', `/api/medical-profile/${pid}`, body, cookie, { id: pid })
		expect(await patch({ isScannable: false, additionalNotes: 'Carries an EpiPen' })).toMatchObject({
			status: 200,
			body: { isScannable: false, additionalNotes: 'Carries an EpiPen' },
		})
		expect(await patch({ additionalNotes: '' })).toMatchObject({ status: 200, body: { isScannable: false, additionalNotes: null } })
		expect(await patch({ isScannable: true })).toMatchObject({ body: { isScannable: true } })
		expect(await patch({ additionalNotes: 'x'.repeat(5001) })).toMatchObject({
			status: 400,
			body: { errors: { additionalNotes: ['Please use at most 5000 characters'] } },
		})
		expect((await patch({})).status).toBe(400)
		expect((await db.query.medicalProfiles.findFirst({ where: eq(s.medicalProfiles.id, profileId) }))?.additionalNotes).toBeNull()
	})

	test('DELETE refuses the last profile and deletes another', async () => {
		const { cookie, pid } = await withProfile()
		const del = (id: string) => json(profileApi.action, 'DELETE', `/api/medical-profile/${id}`, '', cookie, { id })
		expect(await del(pid)).toMatchObject({ status: 400, body: { message: 'You must have at least one profile.' } })
		const kid = await json(
			profileApi.action,
			'POST',
			'/api/medical-profile',
			{ fullName: 'Kid', relationshipToUser: 'child', pin: (await createCode()).pin },
			cookie,
		)
		expect(await del(String(kid.body.id))).toMatchObject({ status: 200, body: { success: true, id: kid.body.id } })
		expect(await db.query.medicalProfiles.findFirst({ where: eq(s.medicalProfiles.id, kid.body.id as number) })).toBeUndefined()
		expect((await get(profilesApi.loader, '/api/medical-profiles', cookie)).body).toHaveLength(1)
	})

	test('bad JSON, bad ids and wrong methods are 400, 404 and 405, never 500', async () => {
		const { cookie, pid } = await withProfile()
		for (const body of ['{not json', '[1,2]', '"text"'])
			expect((await json(profileApi.action, 'POST', '/api/medical-profile', body, cookie)).status).toBe(400)
		for (const id of ['abc', '0', '-1', '1.5', '99999999999']) {
			expect(await get(profileApi.loader, `/api/medical-profile/${id}`, cookie, { id })).toMatchObject({
				status: 404,
				body: { message: 'Profile not found' },
			})
			expect((await json(profileApi.action, 'PATCH', `/api/medical-profile/${id}`, { isScannable: false }, cookie, { id })).status).toBe(
				404,
			)
			expect((await json(medicationsApi.action, 'PUT', `/api/medications/${id}`, { name: 'X' }, cookie, { id })).status).toBe(404)
		}
		expect((await json(profileApi.action, 'POST', `/api/medical-profile/${pid}`, {}, cookie, { id: pid })).status).toBe(405)
		expect((await json(profileApi.action, 'PUT', '/api/medical-profile', {}, cookie)).status).toBe(405)
		expect((await json(profilesApi.action, 'POST', '/api/medical-profiles', {}, cookie)).status).toBe(405)
		expect((await json(allergiesApi.action, 'PUT', '/api/allergies/1', {}, cookie, { id: '1' })).status).toBe(405)
		expect((await get(allergiesApi.loader, '/api/allergies/1', cookie, { id: '1' })).status).toBe(405)
		expect(
			await json(documentsApi.action, 'POST', '/api/medical-documents', { medicalProfileId: pid, fileUrl: 'x' }, cookie),
		).toMatchObject({
			status: 400,
			body: { message: 'fileUrl must be the url of a file you uploaded' },
		})
		expect((await get(uploadApi.loader, '/api/upload', cookie)).status).toBe(405)
		expect((await json(accessLevelApi.action, 'POST', '/api/user/access-level', {}, cookie)).status).toBe(405)
	})
})

describe('validation messages (spec 001 §5)', () => {
	test.each([
		{
			api: profileApi,
			path: '/api/medical-profile',
			fields: { fullName: '', relationshipToUser: 'child', pin: 'ABC' },
			messages: { fullName: 'Name is required', pin: 'PIN must be 8 characters' },
		},
		{
			api: profileApi,
			path: '/api/medical-profile',
			fields: { fullName: 'Grace', relationshipToUser: 'cousin', pin: 'ABCDEFGH' },
			messages: { relationshipToUser: 'Please choose a relationship' },
		},
		{
			api: contactsApi,
			path: '/api/emergency-contacts',
			fields: {},
			messages: { name: 'Name is required', relationship: 'Relationship is required', phoneNumber: 'Phone number is required' },
		},
		{
			api: contactsApi,
			path: '/api/emergency-contacts',
			fields: { name: 'A', relationship: 'B', phoneNumber: '555 0100', email: 'nope' },
			messages: { email: 'Please enter a valid email address' },
		},
		{
			api: allergiesApi,
			path: '/api/allergies',
			fields: { allergen: ' ', severity: 'Deadly' },
			messages: { allergen: 'Allergen is required', severity: 'Severity is required' },
		},
		{ api: medicationsApi, path: '/api/medications', fields: { name: null }, messages: { name: 'Medication name is required' } },
		{
			api: conditionsApi,
			path: '/api/medical-conditions',
			fields: {},
			messages: { condition: 'Condition is required', status: 'Status is required' },
		},
		{
			api: policiesApi,
			path: '/api/insurance-policies',
			fields: { provider: '' },
			messages: { provider: 'Insurance company name is required' },
		},
	])('POST $path $fields', async ({ api, path, fields, messages }) => {
		const { cookie, profileId } = await withProfile()
		const response = await json(api.action, 'POST', path, { medicalProfileId: profileId, ...fields }, cookie)
		expect(response.status).toBe(400)
		expect(Object.values(messages)).toContain(response.body.message)
		for (const [field, message] of Object.entries(messages)) expect(response.body.errors?.[field]).toEqual([message])
	})

	test('a section post without medicalProfileId goes to ?profileId=, else the own profile; lists need profileId', async () => {
		const { cookie, profileId } = await withProfile()
		const latex = { allergen: 'Latex', severity: 'Mild' }
		expect(await json(allergiesApi.action, 'POST', '/api/allergies', latex, cookie)).toMatchObject({
			status: 201,
			body: { medicalProfileId: profileId },
		})
		expect(await json(allergiesApi.action, 'POST', '/api/allergies', { ...latex, medicalProfileId: 'x' }, cookie)).toMatchObject({
			status: 400,
			body: { message: 'medicalProfileId is required', errors: { medicalProfileId: ['medicalProfileId is required'] } },
		})
		expect((await json(allergiesApi.action, 'POST', '/api/allergies?profileId=abc', latex, cookie)).status).toBe(400)
		const newcomer = await person()
		expect(await json(allergiesApi.action, 'POST', '/api/allergies', latex, newcomer.cookie)).toMatchObject({
			status: 400,
			body: { message: CREATE_PROFILE_FIRST },
		})
		expect(await get(allergiesApi.loader, '/api/allergies', cookie)).toMatchObject({
			status: 400,
			body: { message: 'profileId is required' },
		})
		expect((await get(allergiesApi.loader, '/api/allergies?profileId=abc', cookie)).status).toBe(400)
	})

	test('lists and posts also take the profile as ?medicalProfileId=, the name the spec gives it', async () => {
		const { user, cookie, profileId, pid } = await withProfile()
		const [family] = await db
			.insert(s.medicalProfiles)
			.values({ userId: user.id, fullName: 'Kid Lovelace', relationshipToUser: 'child' })
			.returning()
		const kid = String(family!.id)
		const latex = { allergen: 'Latex', severity: 'Mild' }
		expect(await json(allergiesApi.action, 'POST', `/api/allergies?medicalProfileId=${kid}`, latex, cookie)).toMatchObject({
			status: 201,
			body: { medicalProfileId: family!.id },
		})
		expect(await get(allergiesApi.loader, `/api/allergies?medicalProfileId=${kid}`, cookie)).toMatchObject({
			status: 200,
			body: [latex],
		})
		expect(await get(allergiesApi.loader, `/api/allergies?medicalProfileId=${pid}`, cookie)).toMatchObject({ status: 200, body: [] })
		expect((await get(allergiesApi.loader, `/api/allergies?profileId=${kid}&medicalProfileId=${kid}`, cookie)).status).toBe(200)
		expect(await get(allergiesApi.loader, `/api/allergies?profileId=${pid}&medicalProfileId=${kid}`, cookie)).toMatchObject({
			status: 400,
			body: { message: 'profileId and medicalProfileId name different profiles' },
		})
		expect(await get(allergiesApi.loader, '/api/allergies?medicalProfileId=abc', cookie)).toMatchObject({
			status: 400,
			body: { message: 'medicalProfileId is required' },
		})
		// Someone else's profile is unknown, whichever name it is given under.
		const other = await person()
		expect((await get(allergiesApi.loader, `/api/allergies?medicalProfileId=${profileId}`, other.cookie)).status).toBe(404)
	})
})

describe('sections', () => {
	test.each(SECTIONS)('$path: POST, GET by profile, PUT where documented, DELETE', async ({ api, path, create, update }) => {
		const { cookie, pid, profileId } = await withProfile()
		const added = await json(api.action, 'POST', path, { ...create, medicalProfileId: pid }, cookie)
		expect(added).toMatchObject({ status: 201, body: { ...create, medicalProfileId: profileId } })
		const id = String(added.body.id)
		const list = await get(api.loader, `${path}?profileId=${pid}`, cookie)
		expect(list).toMatchObject({ status: 200, body: [{ id: added.body.id, ...create }] })
		if (update) {
			const changed = await json(api.action, 'PUT', `${path}/${id}`, update, cookie, { id })
			expect(changed).toMatchObject({ status: 200, body: { id: added.body.id, ...update } })
		}
		expect(await json(api.action, 'DELETE', `${path}/${id}`, '', cookie, { id })).toMatchObject({ status: 200, body: { success: true } })
		expect((await get(api.loader, `${path}?profileId=${pid}`, cookie)).body).toEqual([])
		expect((await json(api.action, 'DELETE', `${path}/${id}`, '', cookie, { id })).status).toBe(404)
	})

	test('a policy sent as multipart keeps its card photo; the list shows its URL, never the key', async () => {
		const { user, cookie, pid } = await withProfile()
		const added = await upload(
			policiesApi.action,
			'/api/insurance-policies',
			{ medicalProfileId: pid, provider: 'Acme' },
			{ cardFrontPhoto: SAMPLE_FILES.png() },
			cookie,
		)
		expect(added).toMatchObject({ status: 201, body: { provider: 'Acme', cardFrontPhotoUrl: `/files/card/${added.body.id}` } })
		expect(added.body).not.toHaveProperty('cardFrontPhotoKey')
		expect(filesOf(user.id)).toBe(1)
		const id = String(added.body.id)
		expect(await json(policiesApi.action, 'PUT', `/api/insurance-policies/${id}`, { provider: 'Acme Gold' }, cookie, { id })).toMatchObject(
			{ body: { provider: 'Acme Gold', cardFrontPhotoUrl: `/files/card/${id}` } },
		)
		await json(policiesApi.action, 'DELETE', `/api/insurance-policies/${id}`, '', cookie, { id })
		expect(filesOf(user.id)).toBe(0)
	})
})

describe('uploads', () => {
	test('profile picture: saved on the profile, a new one replaces the old file', async () => {
		const { user, cookie, pid } = await withProfile()
		const first = await upload(
			uploadPictureApi.action,
			'/api/upload-profile-picture',
			{ medicalProfileId: pid },
			{ picture: SAMPLE_FILES.png('me.png') },
			cookie,
		)
		expect(first).toMatchObject({ status: 200, body: { url: `/files/picture/${pid}` } })
		await upload(
			uploadPictureApi.action,
			'/api/upload-profile-picture',
			{ medicalProfileId: pid },
			{ picture: SAMPLE_FILES.png('me2.png') },
			cookie,
		)
		// The new picture and its two small copies (WebP and JPEG); the old one's are gone with it.
		expect(filesOf(user.id)).toBe(3)
		const bad = await upload(
			uploadPictureApi.action,
			'/api/upload-profile-picture',
			{ medicalProfileId: 'x' },
			{ picture: SAMPLE_FILES.png() },
			cookie,
		)
		expect(bad).toMatchObject({ status: 400, body: { message: 'medicalProfileId is required' } })
	})

	test('document: creates the row, is listed, and its file goes with it on delete', async () => {
		const { user, cookie, pid, profileId } = await withProfile()
		const added = await upload(
			uploadDocumentApi.action,
			'/api/upload-document',
			{ medicalProfileId: pid },
			{ document: SAMPLE_FILES.pdf() },
			cookie,
		)
		expect(added).toMatchObject({
			status: 201,
			body: { fileName: 'directive.pdf', fileType: 'pdf', url: `/files/document/${added.body.id}` },
		})
		expect(added.body.fileSize).toBe(SAMPLE_FILES.pdf().size)
		const list = await get(documentsApi.loader, `/api/medical-documents?profileId=${pid}`, cookie)
		expect(list.body).toEqual([
			expect.objectContaining({
				id: added.body.id,
				medicalProfileId: profileId,
				fileUrl: added.body.url,
				description: 'Medical document: directive.pdf',
			}),
		])
		expect(JSON.stringify(list.body)).not.toContain('storageKey')
		expect(filesOf(user.id)).toBe(1)
		const id = String(added.body.id)
		expect((await json(documentsApi.action, 'DELETE', `/api/medical-documents/${id}`, '', cookie, { id })).status).toBe(200)
		expect(filesOf(user.id)).toBe(0)
	})

	test("insurance card: stored as the given policy's card; policyId and the type are required", async () => {
		const { user, cookie, pid } = await withProfile()
		const policy = await json(policiesApi.action, 'POST', '/api/insurance-policies', { medicalProfileId: pid, provider: 'Acme' }, cookie)
		const card = await upload(
			uploadApi.action,
			'/api/upload',
			{ type: 'insurance-card', policyId: String(policy.body.id) },
			{ file: SAMPLE_FILES.png() },
			cookie,
		)
		expect(card).toMatchObject({ status: 200, body: { url: `/files/card/${policy.body.id}` } })
		expect((await get(policiesApi.loader, `/api/insurance-policies?profileId=${pid}`, cookie)).body).toEqual([
			expect.objectContaining({ cardFrontPhotoUrl: card.body.url }),
		])
		expect(
			await upload(uploadApi.action, '/api/upload', { type: 'insurance-card', policyId: '' }, { file: SAMPLE_FILES.png() }, cookie),
		).toMatchObject({ status: 400, body: { message: 'policyId is required' } })
		expect(
			(
				await upload(
					uploadApi.action,
					'/api/upload',
					{ type: 'avatar', policyId: String(policy.body.id) },
					{ file: SAMPLE_FILES.png() },
					cookie,
				)
			).status,
		).toBe(400)
		expect(filesOf(user.id)).toBe(1)
	})

	test("refused files answer the upload module's message and store nothing", async () => {
		const { user, cookie, pid, profileId } = await withProfile()
		const exe = await upload(
			uploadDocumentApi.action,
			'/api/upload-document',
			{ medicalProfileId: pid },
			{ document: SAMPLE_FILES.executable() },
			cookie,
		)
		expect(exe).toMatchObject({ status: 400, body: { message: UPLOAD_RULES.document.contentMessage } })
		const pdfAsPicture = await upload(
			uploadPictureApi.action,
			'/api/upload-profile-picture',
			{ medicalProfileId: pid },
			{ picture: SAMPLE_FILES.pdf() },
			cookie,
		)
		expect(pdfAsPicture).toMatchObject({ status: 400, body: { message: UPLOAD_RULES.picture.typeMessage } })
		const big = new File([new Uint8Array(6 * 1024 * 1024)], 'big.png', { type: 'image/png' })
		const oversized = await upload(
			uploadPictureApi.action,
			'/api/upload-profile-picture',
			{ medicalProfileId: pid },
			{ picture: big },
			cookie,
		)
		expect(oversized).toMatchObject({ status: 413, body: { message: 'This file is too large. The limit is 5 MB.' } })
		const none = await upload(uploadDocumentApi.action, '/api/upload-document', { medicalProfileId: pid }, {}, cookie)
		expect(none).toMatchObject({ status: 400, body: { message: 'Please choose a file to upload.' } })
		const notMultipart = await json(uploadDocumentApi.action, 'POST', '/api/upload-document', { medicalProfileId: pid }, cookie)
		expect(notMultipart.status).toBe(400)
		expect(filesOf(user.id)).toBe(0)
		expect(await db.select().from(s.medicalDocuments).where(eq(s.medicalDocuments.medicalProfileId, profileId))).toHaveLength(0)
		expect((await db.query.medicalProfiles.findFirst({ where: eq(s.medicalProfiles.id, profileId) }))?.profilePictureKey).toBeNull()
	})
})

describe('GET /api/user/access-level', () => {
	test('grandfathered flag and the first code claimed by PIN', async () => {
		const { user, cookie } = await person()
		expect(await get(accessLevelApi.loader, '/api/user/access-level', cookie)).toMatchObject({
			status: 200,
			body: { isGrandfathered: false, claimedPinQrCode: null },
		})
		const code = await createCode()
		await claimCode(claimant(user.id), code.pin)
		await claimCode(claimant(user.id), (await createCode()).pin)
		expect((await get(accessLevelApi.loader, '/api/user/access-level', cookie)).body).toEqual({
			isGrandfathered: false,
			claimedPinQrCode: { id: code.id, qrCodeToken: code.token },
		})
		const legacy = await createUser({ isGrandfathered: true })
		expect((await get(accessLevelApi.loader, '/api/user/access-level', await sessionCookie(legacy.id))).body).toEqual({
			isGrandfathered: true,
			claimedPinQrCode: null,
		})
	})
})

describe('ownership: another person gets 404, as for an unknown id, and changes nothing', () => {
	test("every endpoint on A's profile, rows and files", async () => {
		const a = await withProfile()
		const rows: Record<string, string> = {}
		for (const { api, path, create } of SECTIONS)
			rows[path] = String((await json(api.action, 'POST', path, { ...create, medicalProfileId: a.pid }, a.cookie)).body.id)
		rows['/api/medical-documents'] = String(
			(
				await upload(
					uploadDocumentApi.action,
					'/api/upload-document',
					{ medicalProfileId: a.pid },
					{ document: SAMPLE_FILES.pdf() },
					a.cookie,
				)
			).body.id,
		)
		await upload(
			uploadPictureApi.action,
			'/api/upload-profile-picture',
			{ medicalProfileId: a.pid },
			{ picture: SAMPLE_FILES.png() },
			a.cookie,
		)
		const policyId = rows['/api/insurance-policies']!
		await upload(uploadApi.action, '/api/upload', { type: 'insurance-card', policyId }, { file: SAMPLE_FILES.png() }, a.cookie)
		const snapshot = async () =>
			JSON.stringify(
				await db.query.medicalProfiles.findFirst({
					where: eq(s.medicalProfiles.id, a.profileId),
					with: {
						emergencyContacts: true,
						allergies: true,
						medications: true,
						medicalConditions: true,
						insurancePolicies: true,
						medicalDocuments: true,
					},
				}),
			)
		const before = await snapshot()
		const aFiles = filesOf(a.user.id)
		// A document, the picture with its two small copies, the insurance card.
		expect(aFiles).toBe(5)

		const b = await withProfile()
		const id = { id: a.pid }
		const attempts: Array<[Endpoint, Request, Record<string, string>?]> = [
			[profileApi.loader, getRequest(`/api/medical-profile/${a.pid}`, b.cookie), id],
			[profileApi.action, jsonRequest(`/api/medical-profile/${a.pid}`, { firstName: 'Mallory' }, { cookie: b.cookie, method: 'PUT' }), id],
			[
				profileApi.action,
				jsonRequest(`/api/medical-profile/${a.pid}`, { isScannable: false, additionalNotes: 'x' }, { cookie: b.cookie, method: 'PATCH' }),
				id,
			],
			[profileApi.action, jsonRequest(`/api/medical-profile/${a.pid}`, '', { cookie: b.cookie, method: 'DELETE' }), id],
			...[...SECTIONS, { api: documentsApi, path: '/api/medical-documents', create: null, update: null }].flatMap(
				({ api, path, create, update }) => {
					const row = { id: rows[path]! }
					const list: Array<[Endpoint, Request, Record<string, string>?]> = [
						[api.loader, getRequest(`${path}?profileId=${a.pid}`, b.cookie)],
					]
					if (create) list.push([api.action, jsonRequest(path, { ...create, medicalProfileId: a.pid }, { cookie: b.cookie })])
					if (update) list.push([api.action, jsonRequest(`${path}/${row.id}`, update, { cookie: b.cookie, method: 'PUT' }), row])
					list.push([api.action, jsonRequest(`${path}/${row.id}`, '', { cookie: b.cookie, method: 'DELETE' }), row])
					return list
				},
			),
			[
				uploadPictureApi.action,
				multipartRequest('/api/upload-profile-picture', { medicalProfileId: a.pid }, { picture: SAMPLE_FILES.png() }, b.cookie),
			],
			[
				uploadDocumentApi.action,
				multipartRequest('/api/upload-document', { medicalProfileId: a.pid }, { document: SAMPLE_FILES.pdf() }, b.cookie),
			],
			[uploadApi.action, multipartRequest('/api/upload', { type: 'insurance-card', policyId }, { file: SAMPLE_FILES.png() }, b.cookie)],
			[
				policiesApi.action,
				multipartRequest(
					'/api/insurance-policies',
					{ medicalProfileId: a.pid, provider: 'Mallory' },
					{ cardFrontPhoto: SAMPLE_FILES.png() },
					b.cookie,
				),
			],
		]
		expect(attempts.length).toBe(28)
		for (const [handler, request, params] of attempts) {
			const response = await send(handler, request, params)
			expect(response.status, `${request.method} ${request.url}`).toBe(404)
			expect(JSON.stringify(response.body)).not.toMatch(/Lovelace|Warfarin|Acme|Latex/)
		}
		expect(await snapshot()).toBe(before)
		expect(filesOf(a.user.id)).toBe(aFiles)
		expect(filesOf(b.user.id)).toBe(0)
		expect(
			((await get(profilesApi.loader, '/api/medical-profiles', b.cookie)).body as unknown as Array<{ id: number }>).map((p) => p.id),
		).toEqual([b.profileId])

		// The same answer as for an id nobody has.
		const unknown = '2147483647'
		const foreign = await get(profileApi.loader, `/api/medical-profile/${a.pid}`, b.cookie, id)
		expect(foreign.body).toEqual((await get(profileApi.loader, `/api/medical-profile/${unknown}`, b.cookie, { id: unknown })).body)
		for (const { api, path } of SECTIONS) {
			const foreignRow = await json(api.action, 'DELETE', `${path}/${rows[path]}`, '', b.cookie, { id: rows[path]! })
			const unknownRow = await json(api.action, 'DELETE', `${path}/${unknown}`, '', b.cookie, { id: unknown })
			expect([foreignRow.status, foreignRow.body]).toEqual([unknownRow.status, unknownRow.body])
		}
		expect(foreign.body).toEqual({ message: 'Profile not found' })
	})
})
