import { messagesTo } from '#app/adapters/mail.server.ts'
import { randomUUID } from 'node:crypto'
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { and, desc, eq, sql } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { db } from '#db/client.ts'
import * as s from '#db/schema.ts'
import { claimCode } from '#app/domain/claims/claims.server.ts'
import { EMAIL_TAKEN } from '#app/domain/accounts/accounts.server.ts'
import { EMAIL_UNCHANGED } from '#app/domain/accounts/schemas.ts'
import { UNKNOWN_ACTION } from '#app/utils/errors.ts'
import { recordScan } from '#app/domain/responder/responder.server.ts'
import * as home from '#app/routes/home.tsx'
import * as profile from '#app/routes/account/profile.tsx'
import * as confirmEmail from '#app/routes/account/confirm-email.tsx'
import * as login from '#app/routes/auth/login.tsx'
import { LINK_NOT_VALID } from '#app/domain/accounts/email-change.server.ts'
import { env } from '#app/utils/env.server.ts'
import { TOO_MANY_ATTEMPTS } from '#app/utils/rate-limit.server.ts'
import * as accountApi from '#app/routes/api/account.ts'
import * as emailApi from '#app/routes/api/user-email.ts'
import * as profileApi from '#app/routes/api/user-profile.ts'
import * as qrCodesPage from '#app/routes/qr/qr-codes.tsx'
import { requestToastContext } from '#app/utils/toast.server.ts'
import { get, json, send } from '#tests/api.ts'
import { rowsMentioning, type RawQuery } from '#tests/leftovers.ts'
import {
	call,
	claimant,
	cookieFrom,
	createCode,
	createUser,
	formRequest,
	getRequest,
	multipartRequest,
	SAMPLE_FILES,
	sessionCookie,
	TEST_PASSWORD,
	testAddress,
	uniqueEmail,
	unwrap,
} from '#tests/factories.ts'
import { callDashboard } from '#tests/dashboard.ts'

async function person() {
	const user = await createUser({ firstName: 'Grace', lastName: 'Hopper' })
	return { user, cookie: await sessionCookie(user.id) }
}

async function post(cookie: string, fields: Record<string, string>) {
	const { result, context } = await call(profile.action, formRequest('/dashboard/profile', fields, { cookie }))
	const response = await unwrap(result)
	return { ...response, toast: context.get(requestToastContext), text: JSON.stringify(response.body) }
}

const userRow = (id: string) => db.query.users.findFirst({ where: eq(s.users.id, id) })

/** The token in the link of the newest confirmation message to the address (read from the outbox). */
async function tokenSentTo(to: string) {
	const [mail] = await db
		.select({ text: s.emails.textBody })
		.from(s.emails)
		.where(and(messagesTo(to), eq(s.emails.emailType, 'email-change')))
		.orderBy(desc(s.emails.id))
		.limit(1)
	return /confirm-email\?token=([\w-]+)/.exec(mail?.text ?? '')?.[1] ?? ''
}

describe('the dashboard pages', () => {
	test('a signed-out visitor is told sign-in is required and sent to /auth; / stays the landing page', async () => {
		const pages: Array<[(args: never) => unknown, string]> = [
			[home.loader, '/dashboard'],
			[profile.loader, '/dashboard/profile'],
			[qrCodesPage.loader, '/dashboard/qr-codes'],
		]
		for (const [handler, path] of pages) {
			const response = await unwrap((await callDashboard(handler, getRequest(path))).result)
			expect(response).toHaveRedirect('/auth')
			await expect(response).toSendToast({ title: 'Authentication Required' })
		}
		const landing = await unwrap((await callDashboard(home.loader, getRequest('/'))).result)
		expect(landing.status).toBe(200)
		expect(landing.body).toMatchObject({ user: null })
	})

	test('a PIN validated before sign-in sends the user to /claim/{pin} once', async () => {
		const { user } = await person()
		const cookie = await sessionCookie(user.id, { pendingPin: 'ABCD2345' })
		const first = await unwrap((await callDashboard(home.loader, getRequest('/dashboard', cookie))).result)
		expect(first.status).toBe(302)
		expect(first).toHaveRedirect('/claim/ABCD2345')
		const again = await unwrap((await callDashboard(profile.loader, getRequest('/dashboard/profile', cookie))).result)
		expect(again.status).toBe(200)
	})
})

describe('name', () => {
	test('is saved when it changed, and only then', async () => {
		const { user, cookie } = await person()
		const saved = await post(cookie, { intent: 'update-name', firstName: ' Ada ', lastName: 'Lovelace' })
		expect(saved.status).toBe(302)
		expect(await userRow(user.id)).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace' })
		const before = (await userRow(user.id))!.updatedAt
		const same = await post(cookie, { intent: 'update-name', firstName: 'Ada', lastName: 'Lovelace' })
		expect(same.status).toBe(302)
		expect((await userRow(user.id))!.updatedAt).toEqual(before)
	})

	test('a name over 50 characters is refused beside the field and nothing changes', async () => {
		const { user, cookie } = await person()
		const refused = await post(cookie, { intent: 'update-name', firstName: 'A'.repeat(51), lastName: 'Hopper' })
		expect(refused.status).toBe(400)
		expect(refused.text).toContain('First name must be at most 50 characters')
		expect(refused.toast).toMatchObject({ title: 'Update Failed' })
		expect(await userRow(user.id)).toMatchObject({ firstName: 'Grace', lastName: 'Hopper' })
	})
})

describe('the forms', () => {
	test('a missing or unknown intent is a 400 that says so, and changes nothing', async () => {
		const { user, cookie } = await person()
		for (const fields of [{ firstName: 'Ada' }, { intent: 'explode', firstName: 'Ada' }] as Array<Record<string, string>>) {
			const refused = await post(cookie, fields)
			expect(refused.status).toBe(400)
			expect(refused.text).toContain(UNKNOWN_ACTION)
			expect(refused.toast).toMatchObject({ title: 'Update Failed', description: UNKNOWN_ACTION })
		}
		expect(await userRow(user.id)).toMatchObject({ firstName: 'Grace', lastName: 'Hopper' })
	})
})

describe('e-mail', () => {
	test('required, valid, different and unused: each refusal has its message and changes nothing', async () => {
		const { user, cookie } = await person()
		const other = await createUser()
		for (const [email, message] of [
			['', 'Email is required'],
			['not-an-address', 'Please enter a valid email address'],
			[user.email.toUpperCase(), EMAIL_UNCHANGED],
			[other.email, EMAIL_TAKEN],
		]) {
			const refused = await post(cookie, { intent: 'change-email', email: email! })
			expect(refused.status, email).toBe(400)
			expect(refused.text).toContain(message)
			expect(refused.toast).toMatchObject({ title: 'Update Failed' })
		}
		expect((await userRow(user.id))!.email).toBe(user.email)
	})

	test('a new address takes effect only once the link sent to it is opened', async () => {
		const { user, cookie } = await person()
		const next = uniqueEmail('moved')
		const asked = await post(cookie, { intent: 'change-email', email: next.toUpperCase() })
		expect(asked.status).toBe(302)
		expect(asked).toHaveRedirect('/dashboard/profile')
		await expect(asked).toSendToast({
			title: 'Check Your Email',
			description: `We sent a link to ${next}. Your email changes once you open it.`,
		})
		expect((await userRow(user.id))!.email).toBe(user.email)
		const page = await unwrap((await callDashboard(profile.loader, getRequest('/dashboard/profile', cookie))).result)
		expect(page.body).toMatchObject({ user: { email: user.email }, pendingEmail: { email: next, until: expect.stringMatching(/ ET$/) } })

		const token = await tokenSentTo(next)
		const link = `/account/confirm-email?token=${token}`
		// Opening the link only asks: a link preview changes nothing.
		expect(await unwrap((await call(confirmEmail.loader, getRequest(link))).result)).toMatchObject({ status: 200, body: { email: next } })
		expect((await userRow(user.id))!.email).toBe(user.email)

		const confirmed = await unwrap((await call(confirmEmail.action, formRequest(link, { token }, { cookie }))).result)
		expect(confirmed).toHaveRedirect('/dashboard/profile')
		await expect(confirmed).toSendToast({ title: 'Email Updated', description: `Your email is now ${next}.` })
		expect(await userRow(user.id)).toMatchObject({ email: next, emailVerifiedAt: expect.any(Date) })
		const again = await unwrap((await call(confirmEmail.loader, getRequest(link))).result)
		expect(again).toMatchObject({ status: 404, body: { email: null } })
		const spent = await unwrap((await call(confirmEmail.action, formRequest(link, { token }, { cookie }))).result)
		expect(spent.status).toBe(404)
		expect(JSON.stringify(spent.body)).toContain(LINK_NOT_VALID)
	})

	test('the link opened signed out, with every other session ended: all sessions end and it says so', async () => {
		const { user, cookie } = await person()
		const next = uniqueEmail('elsewhere')
		await post(cookie, { intent: 'change-email', email: next })
		const token = await tokenSentTo(next)
		const confirmed = await unwrap(
			(await call(confirmEmail.action, formRequest('/account/confirm-email', { token, endOtherSessions: 'on' }))).result,
		)
		expect(confirmed).toHaveRedirect('/auth')
		await expect(confirmed).toSendToast({
			title: 'Email Updated',
			description: `Your email is now ${next}. Every other session of your account has been signed out.`,
		})
		expect(await db.select().from(s.sessions).where(eq(s.sessions.userId, user.id))).toHaveLength(0)
	})

	test('the link opened in the account’s own session keeps that session when ending the others', async () => {
		const { user, cookie } = await person()
		const other = await sessionCookie(user.id)
		const next = uniqueEmail('own')
		await post(cookie, { intent: 'change-email', email: next })
		const token = await tokenSentTo(next)
		const form = formRequest('/account/confirm-email', { token, endOtherSessions: 'on' }, { cookie })
		expect(await unwrap((await call(confirmEmail.action, form)).result)).toHaveRedirect('/dashboard/profile')
		expect((await unwrap((await callDashboard(profile.loader, getRequest('/dashboard/profile', cookie))).result)).status).toBe(200)
		expect(await unwrap((await callDashboard(profile.loader, getRequest('/dashboard/profile', other))).result)).toHaveRedirect('/auth')
	})

	test('a waiting change can be cancelled; its link then does nothing', async () => {
		const { user, cookie } = await person()
		const next = uniqueEmail('cancel')
		await post(cookie, { intent: 'change-email', email: next })
		const token = await tokenSentTo(next)
		const cancelled = await post(cookie, { intent: 'cancel-email-change' })
		expect(cancelled).toHaveRedirect('/dashboard/profile')
		await expect(cancelled).toSendToast({ title: 'Email Change Cancelled' })
		const page = await unwrap((await callDashboard(profile.loader, getRequest('/dashboard/profile', cookie))).result)
		expect(page.body).toMatchObject({ pendingEmail: null })
		expect((await unwrap((await call(confirmEmail.action, formRequest('/', { token }, { cookie }))).result)).status).toBe(404)
		expect((await userRow(user.id))!.email).toBe(user.email)
	})

	test('the request is limited per address like the other forms that send mail', async () => {
		const address = testAddress()
		const statuses: number[] = []
		for (let i = 0; i <= env.RATE_LIMIT_STRICT_PER_MINUTE; i++) {
			const { cookie } = await person()
			const form = formRequest('/dashboard/profile', { intent: 'change-email', email: uniqueEmail('limit') }, { cookie })
			const { result, context } = await call(profile.action, form, {}, address)
			const answer = await unwrap(result)
			statuses.push(answer.status)
			if (answer.status === 429) {
				expect(JSON.stringify(answer.body)).toContain(TOO_MANY_ATTEMPTS)
				expect(answer.headers.get('retry-after')).toMatch(/^\d+$/)
				expect(context.get(requestToastContext)).toMatchObject({ title: 'Update Failed' })
			}
		}
		expect(statuses.at(-1)).toBe(429)
		expect(statuses.slice(0, -1).every((status) => status === 302)).toBe(true)
	})
})

describe('sign-ins and sessions', () => {
	test('the Profile tab names the sign-in before this one: when, and from which address', async () => {
		const user = await createUser()
		const signIn = async (address: string) => {
			const { result } = await call(login.action, formRequest('/login', { email: user.email, password: TEST_PASSWORD }), {}, address)
			return cookieFrom((await unwrap(result)).headers, 'hmh_session')!
		}
		const first = await signIn('203.0.113.10')
		const firstPage = await unwrap((await callDashboard(profile.loader, getRequest('/dashboard/profile', first))).result)
		expect(firstPage.body).toMatchObject({ lastSignIn: null })
		const second = await signIn('::ffff:203.0.113.11')
		const page = await unwrap((await callDashboard(profile.loader, getRequest('/dashboard/profile', second))).result)
		expect((page.body as { lastSignIn: string }).lastSignIn).toMatch(/^Last sign-in: .+ ET from 203\.0\.113\.10$/)
		// From the first browser, the later sign-in elsewhere is the one to notice.
		const before = await unwrap((await callDashboard(profile.loader, getRequest('/dashboard/profile', first))).result)
		expect((before.body as { lastSignIn: string }).lastSignIn).toMatch(/ from 203\.0\.113\.11$/)
	})

	test('Sign Out Everywhere ends every session of the account, this one included, and says so', async () => {
		const { user, cookie } = await person()
		const other = await sessionCookie(user.id)
		const bystander = await person()
		const done = await post(cookie, { intent: 'sign-out-everywhere' })
		expect(done).toHaveRedirect('/auth')
		await expect(done).toSendToast({
			title: 'Signed Out Everywhere',
			description: 'Every session of your account has ended, on every browser and device, this one included.',
		})
		expect(done.headers.getSetCookie().join()).toContain('hmh_session=;')
		expect(await db.select().from(s.sessions).where(eq(s.sessions.userId, user.id))).toHaveLength(0)
		for (const gone of [cookie, other])
			expect(await unwrap((await callDashboard(profile.loader, getRequest('/dashboard/profile', gone))).result)).toHaveRedirect('/auth')
		const still = await unwrap((await callDashboard(profile.loader, getRequest('/dashboard/profile', bystander.cookie))).result)
		expect(still.status).toBe(200)
	})
})

describe('JSON endpoints', () => {
	test('PUT /api/user/profile and PUT /api/user/email use the same rules', async () => {
		const { user, cookie } = await person()
		expect((await json(profileApi.action, 'PUT', '/api/user/profile', { firstName: 'Ada' })).status).toBe(401)
		expect((await json(profileApi.action, 'POST', '/api/user/profile', { firstName: 'Ada' }, cookie)).status).toBe(405)
		const long = await json(profileApi.action, 'PUT', '/api/user/profile', { firstName: 'x'.repeat(60) }, cookie)
		expect(long).toMatchObject({ status: 400, body: { errors: { firstName: ['First name must be at most 50 characters'] } } })
		const saved = await json(profileApi.action, 'PUT', '/api/user/profile', { firstName: 'Ada', lastName: 'Lovelace' }, cookie)
		expect(saved).toMatchObject({ status: 200, body: { changed: true, user: { firstName: 'Ada', lastName: 'Lovelace' } } })
		expect(
			(await json(profileApi.action, 'PUT', '/api/user/profile', { firstName: 'Ada', lastName: 'Lovelace' }, cookie)).body,
		).toMatchObject({ changed: false })
		expect((await json(profileApi.action, 'PUT', '/api/user/profile', '{oops', cookie)).status).toBe(400)

		expect((await json(emailApi.action, 'PUT', '/api/user/email', { email: 'x@example.com' })).status).toBe(401)
		expect((await json(emailApi.action, 'PUT', '/api/user/email', {}, cookie)).body.message).toBe('Email is required')
		expect(await json(emailApi.action, 'PUT', '/api/user/email', { email: user.email }, cookie)).toMatchObject({
			status: 400,
			body: { message: EMAIL_UNCHANGED },
		})
		const other = await createUser()
		expect(await json(emailApi.action, 'PUT', '/api/user/email', { email: other.email }, cookie)).toMatchObject({
			status: 409,
			body: { message: EMAIL_TAKEN },
		})
		const next = uniqueEmail('api')
		const changed = await json(emailApi.action, 'PUT', '/api/user/email', { email: next }, cookie)
		expect(changed).toMatchObject({
			status: 200,
			body: {
				message: `We sent a link to ${next}. Your email changes once you open it.`,
				pending: { email: next },
				user: { email: user.email },
			},
		})
		expect(await get(emailApi.loader, '/api/user/email', cookie)).toMatchObject({ status: 200, body: { pending: { email: next } } })
		expect(await json(emailApi.action, 'DELETE', '/api/user/email', {}, cookie)).toMatchObject({ status: 200, body: { cancelled: true } })
		expect(await get(emailApi.loader, '/api/user/email', cookie)).toMatchObject({ body: { pending: null } })
		expect((await userRow(user.id))!.email).toBe(user.email)
	})

	test('DELETE /api/account deletes the account and ends the session', async () => {
		const { user, cookie } = await person()
		expect((await send(accountApi.action, new Request('http://localhost/api/account', { method: 'DELETE' }))).status).toBe(401)
		expect(
			(await send(accountApi.action, new Request('http://localhost/api/account', { method: 'POST', headers: { cookie } }))).status,
		).toBe(405)
		const deleted = await send(accountApi.action, new Request('http://localhost/api/account', { method: 'DELETE', headers: { cookie } }))
		expect(deleted).toMatchObject({ status: 200, body: { message: 'Account deleted' } })
		expect(deleted.headers.get('set-cookie')).toContain('hmh_session=;')
		expect(await userRow(user.id)).toBeUndefined()
		expect((await get(profileApi.loader, '/api/user/profile', cookie)).status).toBe(405)
	})
})

function uploadedFiles(userId: string) {
	const dir = join(process.env.DATA_DIR!, 'uploads', 'users', userId)
	return existsSync(dir) ? readdirSync(dir, { recursive: true }).filter((f) => /\.\w+$/.test(String(f))).length : 0
}

/** The worker's database, as plain SQL: postgres.js with DATABASE_URL, else PGlite. */
const rawQuery: RawQuery = async (text, params) => {
	const client = (
		db as unknown as {
			$client: { unsafe?: (t: string, p: unknown[]) => Promise<unknown>; query: (t: string, p: unknown[]) => Promise<{ rows: unknown }> }
		}
	).$client
	return (client.unsafe ? await client.unsafe(text, params) : (await client.query(text, params)).rows) as Array<Record<string, unknown>>
}

describe('deleting the account from the Danger Zone', () => {
	test('leaves nothing of the person in the database or in storage; orders and donations stay, anonymised', async () => {
		const { user, cookie } = await person()
		const save = (fields: Record<string, string>, files: Record<string, File> = {}) =>
			call(home.action, multipartRequest('/dashboard', fields, files, cookie))
		await save({ intent: 'save-profile', firstName: 'Grace', lastName: 'Hopper', bloodType: 'A+' })
		const own = (await db.query.medicalProfiles.findFirst({ where: eq(s.medicalProfiles.userId, user.id) }))!
		await save({ intent: 'upload-picture', profileId: String(own.id) }, { picture: SAMPLE_FILES.png() })
		await save({ intent: 'upload-document', profileId: String(own.id) }, { document: SAMPLE_FILES.pdf() })
		expect(uploadedFiles(user.id)).toBeGreaterThanOrEqual(2)

		const sticker = await createCode()
		await expect(claimCode(claimant(user.id), sticker.pin, { profileId: own.id })).resolves.toMatchObject({ medicalProfileId: own.id })
		const stickerRow = (await db.query.qrCodes.findFirst({ where: eq(s.qrCodes.pin, sticker.pin) }))!
		await recordScan(stickerRow.id, { userAgent: 'iPhone', address: '203.0.113.1', trustedHeaders: null, viewerIsOwner: false })
		await db
			.insert(s.qrCodes)
			.values({ token: randomUUID().replaceAll('-', ''), userId: user.id, medicalProfileId: own.id, source: 'self' })
		const orderId = randomUUID()
		await db.insert(s.orders).values({
			id: orderId,
			confirmationNumber: `HMH-${randomUUID().slice(0, 8).toUpperCase()}`,
			userId: user.id,
			customerName: 'Grace Hopper',
			customerEmail: user.email,
			subtotalCents: 500,
			totalCents: 0,
			shippingAddress: { name: 'Grace Hopper', address1: '1 Navy Way', city: 'Arlington', postalCode: '22201', country: 'US' } as never,
		})
		await db.insert(s.donations).values({
			userId: user.id,
			donorEmail: user.email,
			donorName: 'Grace Hopper',
			amountCents: 1500,
			tier: 'advocate',
			status: 'succeeded',
		})
		await db.insert(s.qrRequests).values({
			userId: user.id,
			fullName: 'Grace Hopper',
			email: user.email,
			quantity: 2,
			streetAddress: '1 Navy Way',
			city: 'Arlington',
			state: 'VA',
			postalCode: '22201',
			country: 'United States',
		})
		await db.insert(s.visits).values({ path: '/dashboard', visitorHash: 1n, isFirstVisit: true, userId: user.id, ipAddress: '203.0.113.9' })
		await db.insert(s.auditLog).values({ actorUserId: user.id, action: 'test', ipAddress: '203.0.113.9' })
		// An e-mail change waiting for its link: the address and both messages go with the account.
		const email = user.email.replace('@', '+new@')
		expect((await post(cookie, { intent: 'change-email', email })).status).toBe(302)

		const deleted = await post(cookie, { intent: 'delete-account' })
		expect(deleted.status).toBe(302)
		expect(deleted).toHaveRedirect('/')
		expect(deleted.headers.getSetCookie().join()).toContain('hmh_session=;')

		expect(uploadedFiles(user.id)).toBe(0)
		expect(await rowsMentioning(rawQuery, [user.id, email, user.email, 'Grace Hopper', '203.0.113.9'])).toEqual([])

		const order = await db.query.orders.findFirst({ where: eq(s.orders.id, orderId) })
		expect(order).toMatchObject({
			userId: null,
			customerName: null,
			shippingAddress: null,
			subtotalCents: 500,
			fulfillmentStatus: 'cancelled',
		})
		const [donation] = await db
			.select()
			.from(s.donations)
			.where(eq(s.donations.amountCents, 1500))
			.orderBy(sql`${s.donations.id} desc`)
			.limit(1)
		expect(donation).toMatchObject({ userId: null, donorEmail: null, donorName: null, tier: 'advocate' })
		const released = await db.query.qrCodes.findFirst({ where: eq(s.qrCodes.pin, sticker.pin) })
		expect(released).toMatchObject({ userId: null, medicalProfileId: null, claimedAt: null, isActive: true })
		expect(await db.query.qrScans.findFirst({ where: eq(s.qrScans.qrCodeId, stickerRow.id) })).toBeUndefined()

		const after = await unwrap((await callDashboard(profile.loader, getRequest('/dashboard/profile', cookie))).result)
		expect(after).toHaveRedirect('/auth')
	})
})
