import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { db } from '#db/client.ts'
import * as s from '#db/schema.ts'
import { PENDING_LIMIT } from '#app/domain/uploads/pending.server.ts'
import * as contactsApi from '#app/routes/api/emergency-contacts.ts'
import * as allergiesApi from '#app/routes/api/allergies.ts'
import * as medicationsApi from '#app/routes/api/medications.ts'
import * as conditionsApi from '#app/routes/api/medical-conditions.ts'
import * as policiesApi from '#app/routes/api/insurance-policies.ts'
import * as documentsApi from '#app/routes/api/medical-documents.ts'
import * as profileApi from '#app/routes/api/medical-profile.ts'
import * as pinClaimApi from '#app/routes/api/pin-claim.ts'
import * as codesApi from '#app/routes/api/qr-codes.ts'
import * as toggleApi from '#app/routes/api/qr-code-toggle.ts'
import * as createOrderApi from '#app/routes/api/create-shop-order.ts'
import * as uploadDocumentApi from '#app/routes/api/upload-document.ts'
import * as uploadPictureApi from '#app/routes/api/upload-profile-picture.ts'
import * as uploadApi from '#app/routes/api/upload.ts'
import * as files from '#app/routes/files.ts'
import * as scan from '#app/routes/scan/scan.ts'
import { get, json, upload } from '#tests/api.ts'
import { call, createCode, createUser, getRequest, SAMPLE_FILES, sessionCookie } from '#tests/factories.ts'
import { specShopOrder } from '#tests/spec-payloads.ts'

// The spec's own client (spec 000 §7, 001 §7): every call below sends exactly the documented payload.

async function person() {
	const user = await createUser()
	return { user, cookie: await sessionCookie(user.id) }
}

async function fileStatus(url: string, cookie: string) {
	const [, kind, id] = url.split('/').filter(Boolean)
	const result = (await call(files.loader, getRequest(url, cookie), { kind: kind!, id: id! })).result
	return result instanceof Response ? result.status : ((result as { init?: { status?: number } }).init?.status ?? 500)
}

const uploadPicture = (cookie: string) =>
	upload(uploadPictureApi.action, '/api/upload-profile-picture', {}, { picture: SAMPLE_FILES.png('me.png') }, cookie)
const uploadDocument = (cookie: string) =>
	upload(uploadDocumentApi.action, '/api/upload-document', {}, { document: SAMPLE_FILES.pdf() }, cookie)
const uploadCard = (cookie: string) =>
	upload(uploadApi.action, '/api/upload', { type: 'insurance-card' }, { file: SAMPLE_FILES.png('card.png') }, cookie)

describe('the profile journey through the JSON API alone', () => {
	test('own profile, picture, DNR with its document, notes, scanning, sections, documents and a policy with its card', async () => {
		const { user, cookie } = await person()
		const detail = {
			firstName: 'Ada',
			middleName: 'B',
			lastName: 'Lovelace',
			dateOfBirth: '1948-03-14',
			bloodType: 'O-',
			gender: 'Female',
			phoneNumber: '555 0100',
			height: '170 cm',
			weight: '60 kg',
			hairColor: 'Brown',
			eyeColor: 'Green',
			race: 'White',
			distinguishingMarks: 'Scar on left hand',
			streetAddress: '1 Main St',
			city: 'Springfield',
			state: 'IL',
			zipCode: '62701',
			insurance: 'Acme',
		}
		const created = await json(profileApi.action, 'POST', '/api/medical-profile', detail, cookie)
		expect(created).toMatchObject({ status: 201, body: { fullName: 'Ada B Lovelace' } })
		const id = String(created.body.id)

		// Upload first, then send the URL: the spec's payloads name no profile or policy.
		const picture = await uploadPicture(cookie)
		expect(picture).toMatchObject({ status: 201, body: { url: expect.stringMatching(/^\/files\/upload\/\d+$/) } })
		expect(await fileStatus(picture.body.url as string, cookie)).toBe(200)
		const patched = await json(profileApi.action, 'PATCH', `/api/medical-profile/${id}`, { profilePictureUrl: picture.body.url }, cookie, {
			id,
		})
		expect(patched).toMatchObject({ status: 200, body: { profilePictureUrl: `/files/picture/${id}` } })
		expect(await fileStatus(`/files/picture/${id}`, cookie)).toBe(200)
		// A waiting upload is used once: its URL is gone now.
		expect(await fileStatus(picture.body.url as string, cookie)).toBe(404)

		const dnr = await uploadDocument(cookie)
		expect(dnr).toMatchObject({ status: 201, body: { url: expect.any(String) } })
		const put = await json(
			profileApi.action,
			'PUT',
			`/api/medical-profile/${id}`,
			{
				...detail,
				profilePictureUrl: `/files/picture/${id}`,
				dnrStatus: 'DNR',
				dnrDocumentUrl: dnr.body.url,
				dnrDocumentName: 'directive.pdf',
				additionalNotes: 'Pacemaker fitted 2019',
				isScannable: false,
			},
			cookie,
			{ id },
		)
		expect(put).toMatchObject({
			status: 200,
			body: {
				...detail,
				profilePictureUrl: `/files/picture/${id}`,
				dnrStatus: 'DNR',
				dnrDocumentUrl: `/files/dnr/${id}`,
				dnrDocumentName: 'directive.pdf',
				additionalNotes: 'Pacemaker fitted 2019',
				isScannable: false,
			},
		})
		// The client sends back what GET gave it: the same URLs keep the same files.
		const again = await json(profileApi.action, 'PUT', `/api/medical-profile/${id}`, { ...put.body, isScannable: true }, cookie, { id })
		expect(again).toMatchObject({
			status: 200,
			body: { dnrDocumentUrl: `/files/dnr/${id}`, profilePictureUrl: `/files/picture/${id}`, isScannable: true },
		})

		const withProfile = { medicalProfileId: Number(id) }
		expect(
			(
				await json(
					contactsApi.action,
					'POST',
					'/api/emergency-contacts',
					{ name: 'Bob', relationship: 'Brother', phoneNumber: '555 0101', ...withProfile },
					cookie,
				)
			).status,
		).toBe(201)
		expect(
			(
				await json(
					allergiesApi.action,
					'POST',
					'/api/allergies',
					{ allergen: 'Penicillin', severity: 'Severe', reaction: 'Anaphylaxis', ...withProfile },
					cookie,
				)
			).status,
		).toBe(201)
		// Spec 001 §7: medications and conditions are posted without a profile id; they go to the own profile.
		expect(
			await json(
				medicationsApi.action,
				'POST',
				'/api/medications',
				{ name: 'Warfarin', dosage: '5 mg', frequency: 'Daily', prescribingDoctor: 'Dr. Who' },
				cookie,
			),
		).toMatchObject({ status: 201, body: { medicalProfileId: Number(id) } })
		expect(
			await json(
				conditionsApi.action,
				'POST',
				'/api/medical-conditions',
				{ condition: 'Atrial fibrillation', status: 'Chronic', diagnosedDate: '2019-05-01', notes: '' },
				cookie,
			),
		).toMatchObject({ status: 201, body: { medicalProfileId: Number(id) } })

		const card = await uploadCard(cookie)
		expect(card.status).toBe(201)
		const policy = await json(
			policiesApi.action,
			'POST',
			'/api/insurance-policies',
			{ provider: 'Acme Health', policyNumber: 'P-1', planType: 'PPO', cardFrontPhotoUrl: card.body.url },
			cookie,
		)
		expect(policy).toMatchObject({ status: 201, body: { provider: 'Acme Health', cardFrontPhotoUrl: `/files/card/${policy.body.id}` } })
		expect(await fileStatus(`/files/card/${policy.body.id}`, cookie)).toBe(200)

		const document = await uploadDocument(cookie)
		const { fileName, fileType, fileSize } = document.body
		const listed = await json(
			documentsApi.action,
			'POST',
			'/api/medical-documents',
			{ fileName, fileType, fileSize, fileUrl: document.body.url, description: 'Medical document: directive.pdf' },
			cookie,
		)
		expect(listed).toMatchObject({
			status: 201,
			body: { fileName: 'directive.pdf', fileType: 'pdf', fileSize: SAMPLE_FILES.pdf().size, medicalProfileId: Number(id) },
		})
		expect(await fileStatus(listed.body.fileUrl as string, cookie)).toBe(200)

		const shown = await get(profileApi.loader, `/api/medical-profile/${id}`, cookie, { id })
		expect(shown.body).toMatchObject({
			dnrStatus: 'DNR',
			emergencyContacts: [expect.objectContaining({ name: 'Bob' })],
			allergies: [expect.objectContaining({ allergen: 'Penicillin' })],
			medications: [expect.objectContaining({ name: 'Warfarin' })],
			medicalConditions: [expect.objectContaining({ condition: 'Atrial fibrillation' })],
			insurancePolicies: [expect.objectContaining({ cardFrontPhotoUrl: `/files/card/${policy.body.id}` })],
			medicalDocuments: [expect.objectContaining({ fileName: 'directive.pdf' })],
		})
		// Nothing waits any more: every upload found its place.
		expect(await db.select().from(s.pendingUploads).where(eq(s.pendingUploads.userId, user.id))).toEqual([])
	})

	test('DNR or POLST without a document is refused; another status clears the document', async () => {
		const { cookie } = await person()
		const id = String((await json(profileApi.action, 'POST', '/api/medical-profile', { firstName: 'Ada' }, cookie)).body.id)
		const put = (body: Record<string, unknown>) => json(profileApi.action, 'PUT', `/api/medical-profile/${id}`, body, cookie, { id })
		expect(await put({ dnrStatus: 'POLST' })).toMatchObject({
			status: 400,
			body: { message: 'Please upload a document for DNR or POLST status' },
		})
		expect(await put({ dnrStatus: 'DNR', dnrDocumentUrl: null })).toMatchObject({ status: 400 })
		const dnr = await uploadDocument(cookie)
		expect(await put({ dnrStatus: 'POLST', dnrDocumentUrl: dnr.body.url })).toMatchObject({
			status: 200,
			body: { dnrStatus: 'POLST', dnrDocumentName: 'directive.pdf' },
		})
		expect(await put({ dnrStatus: 'None' })).toMatchObject({
			status: 200,
			body: { dnrStatus: 'None', dnrDocumentUrl: null, dnrDocumentName: null },
		})
		expect(await fileStatus(`/files/dnr/${id}`, cookie)).toBe(404)
		expect(await put({ dnrStatus: 'Maybe' })).toMatchObject({
			status: 400,
			body: { errors: { dnrStatus: ['Please choose a DNR status'] } },
		})
		expect(await put({ isScannable: 'yes' })).toMatchObject({
			status: 400,
			body: { errors: { isScannable: ['isScannable must be true or false'] } },
		})
	})

	test("another person's upload, a used one, a foreign URL or the wrong kind of file is refused and changes nothing", async () => {
		const a = await person()
		const b = await person()
		const id = String((await json(profileApi.action, 'POST', '/api/medical-profile', { firstName: 'Ada' }, a.cookie)).body.id)
		const patch = (body: Record<string, unknown>) => json(profileApi.action, 'PATCH', `/api/medical-profile/${id}`, body, a.cookie, { id })
		const theirs = await uploadPicture(b.cookie)
		const refused = { status: 400, body: { message: 'profilePictureUrl must be the url of a file you uploaded' } }
		expect(await patch({ profilePictureUrl: theirs.body.url })).toMatchObject(refused)
		expect(await fileStatus(theirs.body.url as string, a.cookie)).toBe(404)
		expect(await patch({ profilePictureUrl: 'https://evil.example/x.png' })).toMatchObject(refused)
		expect(await patch({ profilePictureUrl: `/files/picture/${id}` })).toMatchObject(refused)
		const document = await uploadDocument(a.cookie)
		expect(await patch({ profilePictureUrl: document.body.url })).toMatchObject(refused)
		const mine = await uploadPicture(a.cookie)
		expect((await patch({ profilePictureUrl: `http://localhost:3000${mine.body.url}` })).status).toBe(200)
		expect(await patch({ profilePictureUrl: mine.body.url })).toMatchObject(refused)
		// The other person's file is still theirs, waiting.
		expect(await fileStatus(theirs.body.url as string, b.cookie)).toBe(200)
		expect(await patch({ profilePictureUrl: null })).toMatchObject({ status: 200, body: { profilePictureUrl: null } })
		expect(await patch({})).toMatchObject({ status: 400, body: { message: 'Send at least one field of the profile' } })
	})

	test('one upload used by two requests at once lands in one place only', async () => {
		const { cookie } = await person()
		const first = String((await json(profileApi.action, 'POST', '/api/medical-profile', { firstName: 'Ada' }, cookie)).body.id)
		const picture = await uploadPicture(cookie)
		const results = await Promise.all(
			[first, first].map((id) =>
				json(profileApi.action, 'PATCH', `/api/medical-profile/${id}`, { profilePictureUrl: picture.body.url }, cookie, { id }),
			),
		)
		expect(results.map((r) => r.status).sort()).toEqual([200, 400])
	})

	test(`waiting uploads are capped at ${PENDING_LIMIT} per person (the oldest go) and leave with the account`, async () => {
		const { user, cookie } = await person()
		const first = await uploadPicture(cookie)
		for (let i = 0; i < PENDING_LIMIT; i++) await uploadPicture(cookie)
		expect(await fileStatus(first.body.url as string, cookie)).toBe(404)
		expect(await db.$count(s.pendingUploads, eq(s.pendingUploads.userId, user.id))).toBe(PENDING_LIMIT)
		await db.delete(s.users).where(eq(s.users.id, user.id))
		expect(await db.$count(s.pendingUploads, eq(s.pendingUploads.userId, user.id))).toBe(0)
	})
})

describe('the QR and shop journeys through the JSON API alone', () => {
	test('claim a sticker by PIN, generate and toggle a code, order free stickers for it; the scan shows the profile', async () => {
		const { cookie } = await person()
		const id = String(
			(await json(profileApi.action, 'POST', '/api/medical-profile', { firstName: 'Ada', lastName: 'Lovelace' }, cookie)).body.id,
		)
		const sticker = await createCode()
		const claimed = await json(pinClaimApi.action, 'POST', '/api/pin/claim', { pin: sticker.pin, medicalProfileId: Number(id) }, cookie)
		expect(claimed).toMatchObject({ status: 200, body: { success: true, qrCodeId: sticker.id } })
		const generated = await json(
			codesApi.action,
			'POST',
			'/api/qr-codes',
			{
				type: 'emergency',
				accessLevel: 'full',
				expiresIn: 'never',
				customization: { width: 400, color: '#2563EB', textColor: '#000000', margin: 3, backgroundColor: '#FFFFFF' },
			},
			cookie,
		)
		expect(generated.status).toBeLessThan(300)
		expect(generated.body.qrCodeSvg).toContain('<svg')
		const codeId = String(sticker.id)
		expect(await json(toggleApi.action, 'PATCH', `/api/qr-codes/${codeId}/toggle`, undefined, cookie, { id: codeId })).toMatchObject({
			status: 200,
			body: { isActive: false },
		})
		expect(await json(toggleApi.action, 'PATCH', `/api/qr-codes/${codeId}/toggle`, undefined, cookie, { id: codeId })).toMatchObject({
			status: 200,
			body: { isActive: true },
		})

		const order = await json(createOrderApi.action, 'POST', '/api/create-shop-order', specShopOrder(codeId), cookie)
		expect(order).toMatchObject({ status: 201, body: { checkoutUrl: expect.stringMatching(/^\/order-complete\?order=/) } })

		const token = (await db.query.qrCodes.findFirst({ where: eq(s.qrCodes.id, sticker.id) }))!.token
		const page = (await call(scan.loader, new Request(`http://localhost:3000/scan/${token}`), { token })).result as Response
		expect(await page.text()).toContain('Ada Lovelace')
	})
})
