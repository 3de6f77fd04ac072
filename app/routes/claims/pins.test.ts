import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { db } from '#db/client.ts'
import { medicalProfiles, qrCodes, sessions } from '#db/schema.ts'
import { claimCode } from '#app/domain/claims/claims.server.ts'
import * as apiClaim from '#app/routes/api/pin-claim.ts'
import * as apiValidate from '#app/routes/api/pin-validate.ts'
import * as landing from '#app/routes/auth/landing.tsx'
import * as claimPage from '#app/routes/claims/claim.tsx'
import { requestToastContext } from '#app/utils/toast.server.ts'
import {
	call,
	claimant,
	cookieFrom,
	createCode,
	createUser,
	formRequest,
	getRequest,
	jsonRequest,
	sessionCookie,
	unwrap,
} from '#tests/factories.ts'

describe('the landing page PIN card', () => {
	test.each([
		['ABC', 'Please enter an 8-character PIN'],
		['ABCDEFGHJ', 'Please enter an 8-character PIN'],
		['ZZZZ2345', 'Invalid or already claimed PIN'],
	])('%s is refused with "%s" beside the field and in a toast', async (pin, message) => {
		const { result, context } = await call(landing.action, formRequest('/auth', { intent: 'claim-pin', pin }))
		const response = await unwrap(result)
		expect(response.status).toBe(400)
		expect(JSON.stringify(response.body)).toContain(message)
		expect(context.get(requestToastContext)).toMatchObject({ type: 'error', title: 'Invalid PIN', description: message })
	})

	test('a valid PIN (typed in lower case) is remembered and a signed-out visitor is sent to sign in', async () => {
		const code = await createCode()
		const response = await unwrap(
			(await call(landing.action, formRequest('/auth', { intent: 'claim-pin', pin: code.pin.toLowerCase() }))).result,
		)
		expect(response.status).toBe(302)
		expect(response).toHaveRedirect('/api/login')
		const cookie = cookieFrom(response.headers, 'hmh_session')!
		const { sessionStorage } = await import('#app/utils/session.server.ts')
		const session = await sessionStorage.getSession(cookie)
		expect(session.get('pendingPin')).toBe(code.pin)
		expect(session.get('userId')).toBeUndefined()
	})

	test('a signed-in person with a valid PIN goes to /claim/{pin}', async () => {
		const user = await createUser()
		const code = await createCode()
		const response = await unwrap(
			(await call(landing.action, formRequest('/auth', { intent: 'claim-pin', pin: code.pin }, { cookie: await sessionCookie(user.id) })))
				.result,
		)
		expect(response).toHaveRedirect(`/claim/${code.pin}`)
	})

	test('a claimed PIN is refused', async () => {
		const code = await createCode()
		await claimCode(claimant((await createUser()).id), code.pin)
		const response = await unwrap((await call(landing.action, formRequest('/auth', { intent: 'claim-pin', pin: code.pin }))).result)
		expect(response.status).toBe(400)
		expect(JSON.stringify(response.body)).toContain('Invalid or already claimed PIN')
	})
})

describe('POST /api/pin/validate', () => {
	test('valid, wrong length, unknown and malformed bodies', async () => {
		const code = await createCode()
		expect(await unwrap((await call(apiValidate.action, jsonRequest('/api/pin/validate', { pin: code.pin }))).result)).toMatchObject({
			status: 200,
			body: { valid: true },
		})
		expect(await unwrap((await call(apiValidate.action, jsonRequest('/api/pin/validate', { pin: 'ABC' }))).result)).toMatchObject({
			status: 400,
			body: { valid: false, message: 'Please enter an 8-character PIN' },
		})
		expect(await unwrap((await call(apiValidate.action, jsonRequest('/api/pin/validate', { pin: 'ZZZZ2345' }))).result)).toMatchObject({
			status: 400,
			body: { valid: false, message: 'Invalid or already claimed PIN' },
		})
		expect((await unwrap((await call(apiValidate.action, jsonRequest('/api/pin/validate', { pin: 12345678 }))).result)).status).toBe(400)
		expect((await unwrap((await call(apiValidate.action, jsonRequest('/api/pin/validate', '[]'))).result)).status).toBe(400)
	})
})

describe('claiming', () => {
	test('two simultaneous claims of one PIN leave exactly one owner', async () => {
		const code = await createCode()
		const people = await Promise.all([1, 2, 3, 4].map(() => createUser()))
		const results = await Promise.allSettled(people.map((p) => claimCode(claimant(p.id), code.pin)))
		expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
		expect(results.filter((r) => r.status === 'rejected').map((r) => [r.reason.status, r.reason.message])).toEqual(
			Array(3).fill([400, 'Invalid or already claimed PIN']),
		)
		const row = await db.query.qrCodes.findFirst({ where: eq(qrCodes.pin, code.pin) })
		const winner = people[results.findIndex((r) => r.status === 'fulfilled')]!
		expect(row?.userId).toBe(winner.id)
		expect(row?.claimedAt).toBeInstanceOf(Date)
	})

	test("POST /api/pin/claim needs a session, claims once, and refuses another person's profile", async () => {
		const code = await createCode()
		expect((await unwrap((await call(apiClaim.action, jsonRequest('/api/pin/claim', { pin: code.pin }))).result)).status).toBe(401)
		const user = await createUser()
		const cookie = await sessionCookie(user.id)
		const other = await createUser()
		const [foreignProfile] = await db.insert(medicalProfiles).values({ userId: other.id, fullName: 'Not yours' }).returning()
		const foreign = await unwrap(
			(await call(apiClaim.action, jsonRequest('/api/pin/claim', { pin: code.pin, medicalProfileId: foreignProfile!.id }, { cookie })))
				.result,
		)
		expect(foreign.status).toBe(404)
		expect((await db.query.qrCodes.findFirst({ where: eq(qrCodes.pin, code.pin) }))?.userId).toBeNull()

		const claimed = await unwrap((await call(apiClaim.action, jsonRequest('/api/pin/claim', { pin: code.pin }, { cookie }))).result)
		expect(claimed).toMatchObject({ status: 200, body: { success: true, qrCodeToken: code.token } })
		const again = await unwrap(
			(await call(apiClaim.action, jsonRequest('/api/pin/claim', { pin: code.pin }, { cookie: await sessionCookie(other.id) }))).result,
		)
		expect(again).toMatchObject({ status: 400, body: { message: 'Invalid or already claimed PIN' } })
	})

	test('the claim page: sign-in prompt when signed out; a form, then success, when signed in; GET changes nothing', async () => {
		const code = await createCode()
		const signedOut = await unwrap((await call(claimPage.loader, getRequest(`/claim/${code.pin}`), { pin: code.pin })).result)
		expect(signedOut.body).toMatchObject({ state: 'unauthenticated' })

		const user = await createUser()
		const cookie = await sessionCookie(user.id, { pendingPin: code.pin })
		const ready = await unwrap((await call(claimPage.loader, getRequest(`/claim/${code.pin}`, cookie), { pin: code.pin })).result)
		expect(ready.body).toMatchObject({ state: 'ready', autoClaim: true })
		expect((await db.query.qrCodes.findFirst({ where: eq(qrCodes.pin, code.pin) }))?.userId).toBeNull()

		const posted = await unwrap((await call(claimPage.action, formRequest(`/claim/${code.pin}`, {}, { cookie }), { pin: code.pin })).result)
		expect(posted).toHaveRedirect(`/claim/${code.pin}`)
		const after = await unwrap((await call(claimPage.loader, getRequest(`/claim/${code.pin}`, cookie), { pin: code.pin })).result)
		expect(after.body).toMatchObject({ state: 'success' })
		const [row] = await db.select().from(sessions).where(eq(sessions.userId, user.id))
		expect(row?.data.pendingPin).toBeUndefined()
	})
})

describe('claiming without JavaScript', () => {
	test('signing in with a pending PIN claims it for the person’s own profile', async () => {
		const login = await import('#app/routes/auth/login.tsx')
		const { sessionStorage } = await import('#app/utils/session.server.ts')
		const { TEST_PASSWORD } = await import('#tests/factories.ts')
		const user = await createUser()
		const [own] = await db
			.insert((await import('#db/schema.ts')).medicalProfiles)
			.values({ userId: user.id, fullName: 'Own', relationshipToUser: 'self' })
			.returning()
		const code = await createCode()
		const guest = await sessionStorage.getSession()
		guest.set('pendingPin', code.pin)
		const cookie = (await sessionStorage.commitSession(guest)).split(';')[0]!
		const response = await unwrap(
			(await call(login.action, formRequest('/login', { email: user.email, password: TEST_PASSWORD }, { cookie }))).result,
		)
		expect(response).toHaveRedirect(`/claim/${code.pin}`)
		expect(await db.query.qrCodes.findFirst({ where: eq(qrCodes.pin, code.pin) })).toMatchObject({
			userId: user.id,
			medicalProfileId: own!.id,
		})
		const session = await sessionStorage.getSession(cookieFrom(response.headers, 'hmh_session'))
		expect(session.get('pendingPin')).toBeUndefined()
	})

	test('a signed-in person posting a valid PIN on the landing card is told it is valid and chooses on /claim/{pin} whose information it shows', async () => {
		const user = await createUser()
		const cookie = await sessionCookie(user.id)
		const [mother] = await db
			.insert(medicalProfiles)
			.values({ userId: user.id, fullName: 'Maria Santos', relationshipToUser: 'parent' })
			.returning()
		const code = await createCode()
		const response = await unwrap(
			(await call(landing.action, formRequest('/auth', { intent: 'claim-pin', pin: code.pin }, { cookie }))).result,
		)
		expect(response).toHaveRedirect(`/claim/${code.pin}`)
		await expect(response).toSendToast({ title: 'PIN Validated', description: 'Redirecting to claim your QR code...' })
		// Nothing is claimed yet, nor kept as pending (which the claim page would claim at once, before the choice).
		expect((await db.query.qrCodes.findFirst({ where: eq(qrCodes.pin, code.pin) }))?.userId).toBeNull()
		const [row] = await db.select().from(sessions).where(eq(sessions.userId, user.id))
		expect(row?.data.pendingPin).toBeUndefined()

		const page = await unwrap((await call(claimPage.loader, getRequest(`/claim/${code.pin}`, cookie), { pin: code.pin })).result)
		expect(page.body).toMatchObject({ state: 'ready', autoClaim: false, profiles: [expect.objectContaining({ id: mother!.id })] })
		const claimed = await unwrap(
			(await call(claimPage.action, formRequest(`/claim/${code.pin}`, { profileId: String(mother!.id) }, { cookie }), { pin: code.pin }))
				.result,
		)
		expect(claimed).toHaveRedirect(`/claim/${code.pin}`)
		expect(await db.query.qrCodes.findFirst({ where: eq(qrCodes.pin, code.pin) })).toMatchObject({
			userId: user.id,
			medicalProfileId: mother!.id,
		})
	})
})

describe('wrong PINs per account', () => {
	test('the eleventh wrong PIN in a minute is refused, on any of the account’s PIN paths, even from another address', async () => {
		const user = await createUser()
		const cookie = await sessionCookie(user.id)
		for (let i = 0; i < 10; i++) {
			const response = await unwrap(
				(await call(apiClaim.action, jsonRequest('/api/pin/claim', { pin: `WRONG${String(i).padStart(3, '2')}` }, { cookie }))).result,
			)
			expect(response.body).toMatchObject({ message: 'Invalid or already claimed PIN' })
		}
		const code = await createCode()
		const refused = await unwrap((await call(apiClaim.action, jsonRequest('/api/pin/claim', { pin: code.pin }, { cookie }))).result)
		expect(refused).toMatchObject({ status: 429, body: { message: 'Too many attempts. Please wait a minute and try again.' } })
		const viaLanding = await unwrap(
			(await call(landing.action, formRequest('/auth', { intent: 'claim-pin', pin: code.pin }, { cookie }))).result,
		)
		expect(JSON.stringify(viaLanding.body)).toContain('Too many attempts')
		expect((await db.query.qrCodes.findFirst({ where: eq(qrCodes.pin, code.pin) }))?.userId).toBeNull()
		// Someone else is not affected.
		const other = await createUser()
		await expect(claimCode(claimant(other.id), code.pin)).resolves.toMatchObject({ token: code.token })
	})
})
