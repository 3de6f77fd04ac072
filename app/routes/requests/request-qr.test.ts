import { messagesTo } from '#app/adapters/mail.server.ts'
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { db } from '#db/client.ts'
import { emails, qrRequests } from '#db/schema.ts'
import { countryNames } from '#app/domain/requests/countries.ts'
import * as api from '#app/routes/api/qr-request.ts'
import * as page from '#app/routes/requests/request-qr.tsx'
import * as sent from '#app/routes/requests/request-qr-sent.tsx'
import { requestToastContext } from '#app/utils/toast.server.ts'
import { get, json } from '#tests/api.ts'
import { call, cookieFrom, createUser, formRequest, getRequest, sessionCookie, uniqueEmail, unwrap } from '#tests/factories.ts'

const address = { streetAddress: '12 Harbor Road', city: 'Portland', state: 'ME', postalCode: '04101', country: 'United States' }

function formFields(overrides: Record<string, string> = {}) {
	return { fullName: 'Ada Responder', email: uniqueEmail('qr'), quantity: '2', ...address, notes: 'Front door code 1234', ...overrides }
}

const rowsFor = (email: string) => db.select().from(qrRequests).where(eq(qrRequests.email, email))
const mailsTo = (email: string) => db.select().from(emails).where(messagesTo(email))

async function submitForm(fields: Record<string, string>, cookie?: string) {
	const { result, context } = await call(page.action, formRequest('/request-qr', fields, { cookie }))
	return { response: await unwrap(result), toast: context.get(requestToastContext) }
}

describe('the /request-qr form', () => {
	test('an empty form is refused with every message of spec 002 §5 and a Request Failed toast; nothing is stored', async () => {
		const countRows = async () => (await db.select({ id: qrRequests.id }).from(qrRequests)).length
		const before = await countRows()
		const { response, toast } = await submitForm({
			fullName: '',
			email: '',
			quantity: '',
			streetAddress: '',
			city: '',
			state: '',
			postalCode: '',
			country: '',
		})
		expect(response.status).toBe(400)
		const body = JSON.stringify(response.body)
		for (const message of [
			'Full name is required',
			'Please enter a valid email address',
			'Quantity must be at least 1',
			'Street address is required',
			'City is required',
			'State/Province is required',
			'Postal code is required',
			'Country is required',
		])
			expect(body).toContain(message)
		expect(toast).toMatchObject({ type: 'error', title: 'Request Failed', description: 'Full name is required' })
		expect(await countRows()).toBe(before)
	})

	test.each([
		[{ quantity: '0' }, 'quantity', 'Quantity must be at least 1'],
		[{ quantity: '11' }, 'quantity', 'Maximum 10 QR codes per request'],
		[{ quantity: '2.5' }, 'quantity', 'Quantity must be a whole number'],
		[{ email: 'not-an-address' }, 'email', 'Please enter a valid email address'],
		[{ fullName: '   ' }, 'fullName', 'Full name is required'],
		[{ city: '' }, 'city', 'City is required'],
		[{ notes: 'x'.repeat(1001) }, 'notes', 'Notes must be at most 1000 characters'],
	])('%o is refused beside %s with "%s"', async (override, field, message) => {
		const fields = formFields(override)
		const { response, toast } = await submitForm(fields)
		expect(response.status).toBe(400)
		expect((response.body as { result: { error: Record<string, string[]> } }).result.error[field]).toEqual([message])
		expect(toast).toMatchObject({ title: 'Request Failed', description: message })
		if (field !== 'email') expect(await rowsFor(fields.email)).toHaveLength(0)
	})

	test('a guest request is stored as pending, confirmed by e-mail, and leads to the confirmation screen', async () => {
		const fields = formFields()
		const { response } = await submitForm(fields)
		expect(response).toHaveRedirect('/request-qr/sent')
		await expect(response).toSendToast({
			type: 'success',
			title: 'Request Submitted!',
			description: 'Your QR code request has been received.',
		})

		const [row] = await rowsFor(fields.email)
		expect(row).toMatchObject({
			userId: null,
			fullName: 'Ada Responder',
			quantity: 2,
			...address,
			notes: 'Front door code 1234',
			requestStatus: 'pending',
			fulfilledAt: null,
		})

		const [mail] = await mailsTo(fields.email)
		expect(mail).toMatchObject({ emailType: 'qr-request-confirmation', status: 'pending', userId: null })
		expect(mail!.textBody).toContain('Hello Ada Responder')
		expect(mail!.textBody).toContain('within 5-7 business days')
		expect(mail!.textBody).toContain('12 Harbor Road\nPortland, ME 04101\nUnited States')
		expect(mail!.textBody).toContain('enter the PIN printed beside it')

		const receipt = cookieFrom(response.headers, 'hmh_qr_request')!
		const screen = await unwrap((await call(sent.loader, getRequest('/request-qr/sent', receipt))).result)
		expect(screen.body).toEqual({ receipt: { email: fields.email, quantity: 2 }, signedIn: false })
	})

	test('the confirmation screen is reachable only right after a submission', async () => {
		const response = await unwrap((await call(sent.loader, getRequest('/request-qr/sent'))).result)
		expect(response.status).toBe(302)
		expect(response).toHaveRedirect('/request-qr')
	})

	test('a signed-in person gets their name and e-mail prefilled, and the request is linked to them', async () => {
		const user = await createUser({ firstName: 'Grace', lastName: 'Hopper' })
		const cookie = await sessionCookie(user.id)
		const loaded = await unwrap((await call(page.loader, getRequest('/request-qr', cookie))).result)
		expect(loaded.body).toEqual({ defaults: { fullName: 'Grace Hopper', email: user.email }, countries: countryNames() })

		const { response } = await submitForm(formFields({ email: user.email, quantity: '1' }), cookie)
		expect(response.status).toBe(302)
		const [row] = await rowsFor(user.email)
		expect(row).toMatchObject({ userId: user.id, quantity: 1, requestStatus: 'pending' })
		expect((await mailsTo(user.email))[0]).toMatchObject({ userId: user.id, emailType: 'qr-request-confirmation' })

		const receipt = cookieFrom(response.headers, 'hmh_qr_request')!
		const screen = await unwrap((await call(sent.loader, getRequest('/request-qr/sent', `${receipt}; ${cookie}`))).result)
		expect(screen.body).toMatchObject({ signedIn: true })
	})

	test('a bot that fills the honeypot sees a success but nothing is stored and no e-mail is sent', async () => {
		const fields = formFields({ website: 'http://spam.example' })
		const { response } = await submitForm(fields)
		expect(response.status).toBe(302)
		expect(response).toHaveRedirect('/request-qr/sent')
		expect(await rowsFor(fields.email)).toHaveLength(0)
		expect(await mailsTo(fields.email)).toHaveLength(0)
	})
})

describe('POST /api/qr-request', () => {
	const payload = (overrides: Record<string, unknown> = {}) => ({
		fullName: 'Ada Responder',
		email: uniqueEmail('api'),
		quantity: 3,
		shippingAddress: address,
		notes: '',
		...overrides,
	})

	test('a guest without an address or e-mail gets 400 with every field error by its path', async () => {
		const response = await json(api.action, 'POST', '/api/qr-request', {})
		expect(response.status).toBe(400)
		expect(response.body.errors).toEqual({
			fullName: ['Full name is required'],
			email: ['Please enter a valid email address'],
			quantity: ['Quantity must be at least 1'],
			'shippingAddress.streetAddress': ['Street address is required'],
			'shippingAddress.city': ['City is required'],
			'shippingAddress.state': ['State/Province is required'],
			'shippingAddress.postalCode': ['Postal code is required'],
			'shippingAddress.country': ['Country is required'],
		})
	})

	test.each([
		[{ quantity: 0 }, 'quantity', 'Quantity must be at least 1'],
		[{ quantity: 11 }, 'quantity', 'Maximum 10 QR codes per request'],
		[{ quantity: 'many' }, 'quantity', 'Quantity must be at least 1'],
		[{ email: 'nope' }, 'email', 'Please enter a valid email address'],
		[{ shippingAddress: { ...address, postalCode: ' ' } }, 'shippingAddress.postalCode', 'Postal code is required'],
		[{ shippingAddress: { ...address, country: '' } }, 'shippingAddress.country', 'Country is required'],
	])('%o gets 400 with %s: "%s"', async (override, field, message) => {
		const body = payload(override)
		const response = await json(api.action, 'POST', '/api/qr-request', body)
		expect(response.status).toBe(400)
		expect(response.body).toMatchObject({ message, errors: { [field]: [message] } })
		if (typeof body.email === 'string') expect(await rowsFor(body.email)).toHaveLength(0)
	})

	test('NUL characters in a JSON body or a form are dropped, not a database error', async () => {
		const body = payload({ fullName: 'Ada\u0000 Responder', notes: 'Side\u0000 door' })
		const response = await json(api.action, 'POST', '/api/qr-request', body)
		expect(response.status).toBe(201)
		expect(response.body).toMatchObject({ request: { fullName: 'Ada Responder', notes: 'Side door' } })
		const fields = formFields({ fullName: 'Grace\u0000 Hopper' })
		const { response: page } = await submitForm(fields)
		expect(page.status).toBe(302)
		expect(await rowsFor(fields.email)).toMatchObject([{ fullName: 'Grace Hopper' }])
	})

	test('a malformed body is a 400, and GET is not allowed', async () => {
		expect((await json(api.action, 'POST', '/api/qr-request', '{not json')).status).toBe(400)
		expect((await get(api.loader, '/api/qr-request')).status).toBe(405)
	})

	test('a guest request is stored as pending and answered 201; a numeric string quantity is accepted', async () => {
		const body = payload({ quantity: '4' })
		const response = await json(api.action, 'POST', '/api/qr-request', body)
		expect(response.status).toBe(201)
		expect(response.body).toMatchObject({
			message: 'Your QR code request has been received.',
			request: {
				fullName: 'Ada Responder',
				email: body.email,
				quantity: 4,
				shippingAddress: address,
				notes: null,
				requestStatus: 'pending',
			},
		})
		expect(await rowsFor(body.email)).toHaveLength(1)
		expect(await mailsTo(body.email)).toMatchObject([{ emailType: 'qr-request-confirmation', status: 'pending' }])
	})

	test("without an e-mail, a signed-in user's own is used and the request is theirs", async () => {
		const user = await createUser()
		const { email: _none, ...body } = payload()
		const response = await json(api.action, 'POST', '/api/qr-request', body, await sessionCookie(user.id))
		expect(response.status).toBe(201)
		expect(response.body.request).toMatchObject({ email: user.email })
		expect(await rowsFor(user.email)).toMatchObject([{ userId: user.id, requestStatus: 'pending' }])
		expect(await mailsTo(user.email)).toMatchObject([{ userId: user.id, emailType: 'qr-request-confirmation' }])
	})

	test('the honeypot works for the API too: nothing stored, nothing sent', async () => {
		const body = payload({ website: 'filled by a bot' })
		const response = await json(api.action, 'POST', '/api/qr-request', body)
		expect(response.status).toBe(201)
		expect(await rowsFor(body.email)).toHaveLength(0)
		expect(await mailsTo(body.email)).toHaveLength(0)
	})
})
