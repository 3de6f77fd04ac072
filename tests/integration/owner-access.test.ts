import { generateTOTP } from '@epic-web/totp'
import { RouterContextProvider } from 'react-router'
import { afterEach, describe, expect, test } from 'vitest'
import { eq } from 'drizzle-orm'
import { db } from '#db/client.ts'
import { ownerSettings } from '#db/schema.ts'
import {
	confirmEnrolment,
	disableTwoFactor,
	startEnrolment,
	twoFactorState,
	verifySecondFactor,
} from '#app/domain/admin/owner-two-factor.server.ts'
import { WRONG_CODE } from '#app/domain/admin/owner-two-factor.ts'
import { setLegacyAccess } from '#app/domain/admin/legacy-access.server.ts'
import * as activateFreeAccess from '#app/routes/api/activate-free-access.ts'
import { json } from '#tests/api.ts'
import { isValidAdminToken, ownerAccess, requireOwnerMiddleware } from '#app/middleware/owner.server.ts'
import { OWNER_ONLY } from '#app/middleware/permissions.server.ts'
import routes from '#app/routes.ts'
import { env } from '#app/utils/env.server.ts'
import { clientAddressContext } from '#app/utils/request.server.ts'
import { isTrustedDevice } from '#app/utils/trusted-device.server.ts'
import * as twoFactorPage from '#app/routes/admin/two-factor.tsx'
import * as ownerPanel from '#app/routes/admin/owner-panel.tsx'
import * as validateApi from '#app/routes/api/validate-admin-token.ts'
import { TOO_MANY_ATTEMPTS } from '#app/utils/rate-limit.server.ts'
import {
	call,
	cookieFrom,
	createUser,
	formRequest,
	getRequest,
	sessionCookie,
	testAddress,
	TEST_GUESSER,
	unwrap,
} from '#tests/factories.ts'

const saved = { OWNER_EMAIL: env.OWNER_EMAIL, ADMIN_TOKEN: env.ADMIN_TOKEN }
afterEach(() => Object.assign(env, saved))

type RouteEntry = { path?: string; file: string; children?: RouteEntry[] }

/** Every route of the table with the files of the layouts above it. */
function flatten(entries: RouteEntry[], above: string[] = []): Array<{ path: string; file: string; above: string[] }> {
	return entries.flatMap((entry) => [
		...(entry.path !== undefined ? [{ path: entry.path, file: entry.file, above }] : []),
		...flatten(entry.children ?? [], [...above, entry.file]),
	])
}

const ownerPaths = (path: string) => /^(admin|api\/admin|api\/qr-scan)(\/|$|\.)/.test(path) || path === 'api/notify-visitors'
const adminRoutes = flatten(routes as RouteEntry[]).filter((r) => ownerPaths(r.path))

test('every admin page, action and endpoint sits beneath the gate whose middleware checks the owner', () => {
	expect(adminRoutes.length).toBeGreaterThan(8)
	for (const route of adminRoutes) expect(route.above, route.path).toContain('routes/admin/gate.tsx')
})

async function enrolled(userId: string, email: string) {
	const { secret } = await startEnrolment(userId, email)
	const { otp } = await generateTOTP({ secret, period: 30, digits: 6, algorithm: 'SHA-1' })
	const { recoveryCodes } = await confirmEnrolment(userId, otp, TEST_GUESSER)
	return { secret, recoveryCodes }
}

/** The five people of the matrix (plus the owner between password and second factor), as session cookies. */
async function people() {
	const owner = await createUser()
	const ownerWithTwoFactor = await createUser()
	const someone = await createUser()
	env.ADMIN_TOKEN = 'a-long-random-admin-token-for-tests-0123456789'
	await enrolled(ownerWithTwoFactor.id, ownerWithTwoFactor.email)
	return {
		owner,
		ownerWithTwoFactor,
		cookies: {
			visitor: undefined,
			user: await sessionCookie(someone.id),
			'owner without two-factor': await sessionCookie(owner.id),
			'owner before the second factor': await sessionCookie(ownerWithTwoFactor.id),
			'owner with two-factor': await sessionCookie(ownerWithTwoFactor.id, {
				ownerVerified: { userId: ownerWithTwoFactor.id, at: Date.now() },
			}),
			'token session': await sessionCookie(someone.id, { adminTokenValid: true, adminTokenUserId: someone.id }),
			'token of another account': await sessionCookie(someone.id, { adminTokenValid: true, adminTokenUserId: owner.id }),
		} as Record<string, string | undefined>,
	}
}

const GRANTED = ['owner with two-factor', 'token session']

async function through(path: string, method: string, cookie: string | undefined) {
	const base = getRequest(path, cookie)
	const request = method === 'GET' ? base : new Request(base.url, { method, headers: base.headers, body: '{}' })
	const context = new RouterContextProvider()
	context.set(clientAddressContext, testAddress())
	const reached = new Response('reached', { status: 299 })
	try {
		return await requireOwnerMiddleware({ request, context, params: {} } as never, async () => reached)
	} catch (thrown) {
		return thrown
	}
}

describe('the authorization matrix', () => {
	test(
		'only the owner past the second factor and a token session get in, on every admin route and method',
		{ timeout: 60_000 },
		async () => {
			const { owner, ownerWithTwoFactor, cookies } = await people()
			// Both accounts are the owner's (the e-mail is compared per request): one before, one after enrolling.
			env.OWNER_EMAIL = owner.email.toLowerCase()
			const answers: string[] = []
			for (const route of adminRoutes) {
				const path = '/' + route.path.replace(':orderId', 'some-order').replace(':id', '1')
				for (const method of ['GET', 'POST', 'PATCH', 'PUT', 'DELETE']) {
					for (const [who, cookie] of Object.entries(cookies)) {
						if (who === 'owner before the second factor' || who === 'owner with two-factor')
							env.OWNER_EMAIL = ownerWithTwoFactor.email.toLowerCase()
						else env.OWNER_EMAIL = owner.email.toLowerCase()
						const answer = await unwrap(await through(path, method, cookie))
						const api = path.startsWith('/api/')
						let expected: number
						if (GRANTED.includes(who)) expected = 299
						else if (who === 'visitor') expected = api ? 401 : 302
						else if (who === 'user' || who === 'token of another account') expected = 403
						else expected = api ? 403 : 302
						if (answer.status !== expected) answers.push(`${method} ${path} as ${who}: ${answer.status}, expected ${expected}`)
						if (who === 'user' && api) expect(answer.body).toEqual({ message: OWNER_ONLY })
						if ((who === 'owner without two-factor' || who === 'owner before the second factor') && !api)
							expect(answer.headers.get('location')).toMatch(/^\/owner-panel\/two-factor\?redirectTo=/)
					}
				}
			}
			expect(answers).toEqual([])
		},
	)

	test('the page gate shows Access Denied with the spec words to a signed-in non-owner; a visitor goes to sign-in and back', async () => {
		const someone = await createUser()
		env.OWNER_EMAIL = 'nobody-else@example.com'
		const denied = await unwrap(await through('/admin', 'GET', await sessionCookie(someone.id)))
		expect(denied).toMatchObject({ status: 403, body: { message: OWNER_ONLY, link: { to: '/owner-panel', label: 'Admin Access' } } })
		const visitor = await unwrap(await through('/admin/orders/x', 'GET', undefined))
		expect(visitor).toHaveRedirect('/api/login?redirectTo=%2Fadmin%2Forders%2Fx')
	})

	test('a second factor passed more than 12 hours ago is asked for again', async () => {
		const owner = await createUser()
		env.OWNER_EMAIL = owner.email.toLowerCase()
		await enrolled(owner.id, owner.email)
		const stale = await sessionCookie(owner.id, { ownerVerified: { userId: owner.id, at: Date.now() - 13 * 3600_000 } })
		const answer = await unwrap(await through('/api/admin/orders', 'GET', stale))
		expect(answer.status).toBe(403)
	})
})

describe('the admin token', () => {
	test('is compared whole, and no token configured means no token is valid', () => {
		env.ADMIN_TOKEN = 'correct-token-correct-token-1234'
		expect(isValidAdminToken('correct-token-correct-token-1234')).toBe(true)
		expect(isValidAdminToken('correct-token-correct-token-123')).toBe(false)
		expect(isValidAdminToken('')).toBe(false)
		expect(isValidAdminToken(['correct-token-correct-token-1234'])).toBe(false)
		expect(isValidAdminToken('x'.repeat(10_000))).toBe(false)
		env.ADMIN_TOKEN = undefined
		expect(isValidAdminToken('correct-token-correct-token-1234')).toBe(false)
	})

	test("every check counts, the spec's ?token= included, per address and per account; a visitor's JSON call is a 401 and checks nothing", async () => {
		env.ADMIN_TOKEN = 'correct-token-correct-token-1234'
		const user = await createUser()
		const cookie = await sessionCookie(user.id)
		const here = testAddress()
		const look = async (token: string, address = here, who = cookie) =>
			unwrap((await call(ownerPanel.loader, getRequest(`/owner-panel?token=${token}`, who), {}, address)).result)
		for (let i = 0; i < 10; i++) expect((await look(`guess-${i}`)).body).toMatchObject({ tokenRefused: 'This admin token is not valid.' })
		const limited = await look('guess-10')
		expect(limited).toMatchObject({ status: 429, body: { welcome: false, tokenRefused: TOO_MANY_ATTEMPTS } })
		expect(limited.headers.get('retry-after')).toMatch(/^\d+$/)
		// Past the limit even the right token is not checked: on the form, from here, and for this account from anywhere.
		const form = await call(ownerPanel.action, formRequest('/owner-panel', { token: env.ADMIN_TOKEN }, { cookie }), {}, here)
		expect((await unwrap(form.result)).status).toBe(429)
		const elsewhere = await json(validateApi.action, 'POST', '/api/validate-admin-token', { token: env.ADMIN_TOKEN }, cookie)
		expect(elsewhere.status).toBe(429)
		// Another account at another address is not held back.
		const other = await sessionCookie((await createUser()).id)
		expect((await look(env.ADMIN_TOKEN, testAddress(), other)).body).toMatchObject({ welcome: true, token: env.ADMIN_TOKEN })

		const visitor = await json(validateApi.action, 'POST', '/api/validate-admin-token', { token: env.ADMIN_TOKEN })
		expect(visitor).toMatchObject({ status: 401 })
		expect(visitor.headers.get('set-cookie')).toBeNull()
	})
})

describe('two-factor sign-in', () => {
	const totp = async (secret: string) => (await generateTOTP({ secret, period: 30, digits: 6, algorithm: 'SHA-1' })).otp

	test('enrolment gives a 160-bit secret and ten recovery codes, shown once and stored hashed', async () => {
		const owner = await createUser()
		const { secret, otpauthUri } = await startEnrolment(owner.id, owner.email)
		expect(secret).toMatch(/^[A-Z2-7]{32}$/)
		expect(otpauthUri).toContain(`secret=${secret}`)
		expect(otpauthUri).toContain('issuer=Hit')
		expect((await twoFactorState(owner.id)).enabled).toBe(false)
		await expect(confirmEnrolment(owner.id, '000000', TEST_GUESSER)).rejects.toMatchObject({ status: 400, message: WRONG_CODE })
		const { recoveryCodes } = await confirmEnrolment(owner.id, await totp(secret), TEST_GUESSER)
		expect(recoveryCodes).toHaveLength(10)
		expect(new Set(recoveryCodes).size).toBe(10)
		for (const code of recoveryCodes) expect(code).toMatch(/^[A-Z2-9]{5}-[A-Z2-9]{5}$/)
		const rows = await db.query.ownerRecoveryCodes.findMany({ where: (r, { eq }) => eq(r.userId, owner.id) })
		expect(rows).toHaveLength(10)
		for (const row of rows) expect(recoveryCodes.some((code) => row.codeHash.includes(code.replace('-', '')))).toBe(false)
		expect(await twoFactorState(owner.id)).toMatchObject({ enabled: true, recoveryCodesLeft: 10 })
		await expect(startEnrolment(owner.id, owner.email)).rejects.toMatchObject({ status: 409 })
	})

	test('a code is accepted once: the same time step replayed is refused', async () => {
		const owner = await createUser()
		const { secret } = await startEnrolment(owner.id, owner.email)
		const first = await totp(secret)
		await confirmEnrolment(owner.id, first, TEST_GUESSER)
		// The code that confirmed enrolment cannot sign in a second time (even once its time step has passed, it is
		// still within the ±1 step window, and refused).
		await expect(verifySecondFactor(owner.id, first, TEST_GUESSER)).rejects.toMatchObject({ status: 400, message: WRONG_CODE })
		// Past its time step, the next code works, once.
		await db
			.update(ownerSettings)
			.set({ totpLastStep: Math.floor(Date.now() / 30_000) - 2 })
			.where(eq(ownerSettings.userId, owner.id))
		const code = await totp(secret)
		expect(await verifySecondFactor(owner.id, code, TEST_GUESSER)).toMatchObject({ method: 'code' })
		const twice = await Promise.allSettled([
			verifySecondFactor(owner.id, code, TEST_GUESSER),
			verifySecondFactor(owner.id, code, TEST_GUESSER),
		])
		expect(twice.every((r) => r.status === 'rejected')).toBe(true)
	})

	test('a recovery code works once, typed in any case and without the dash', async () => {
		const owner = await createUser()
		const { recoveryCodes } = await enrolled(owner.id, owner.email)
		const typed = recoveryCodes[3]!.replace('-', '').toLowerCase()
		expect(await verifySecondFactor(owner.id, typed, TEST_GUESSER)).toEqual({ method: 'recovery', recoveryCodesLeft: 9 })
		await expect(verifySecondFactor(owner.id, recoveryCodes[3]!, TEST_GUESSER)).rejects.toMatchObject({ status: 400 })
		expect((await twoFactorState(owner.id)).recoveryCodesLeft).toBe(9)
	})

	test('wrong codes are limited per address: five in five minutes refuse that address, even the right code; right codes never count', async () => {
		const owner = await createUser()
		const { secret } = await enrolled(owner.id, owner.email)
		const nextStep = () => db.update(ownerSettings).set({ totpLastStep: 0 }).where(eq(ownerSettings.userId, owner.id))
		const here = { address: testAddress(), trustedDevice: false }
		for (let i = 0; i < 6; i++) {
			await nextStep()
			expect(await verifySecondFactor(owner.id, await totp(secret), here)).toMatchObject({ method: 'code' })
		}
		for (let i = 0; i < 5; i++) await expect(verifySecondFactor(owner.id, '123456', here)).rejects.toMatchObject({ status: 400 })
		await nextStep()
		await expect(verifySecondFactor(owner.id, await totp(secret), here)).rejects.toMatchObject({ status: 429 })
	})

	test("an attacker's guesses from other addresses never keep the owner out: the right code from the owner's goes through", async () => {
		const owner = await createUser()
		const { secret } = await enrolled(owner.id, owner.email)
		const nextStep = () => db.update(ownerSettings).set({ totpLastStep: 0 }).where(eq(ownerSettings.userId, owner.id))
		const attacker = { address: testAddress(), trustedDevice: false }
		const guesses = await Promise.allSettled(Array.from({ length: 8 }, () => verifySecondFactor(owner.id, '000000', attacker)))
		expect(guesses.every((g) => g.status === 'rejected')).toBe(true)
		await nextStep()
		const newBrowser = { address: testAddress(), trustedDevice: false }
		expect(await verifySecondFactor(owner.id, await totp(secret), newBrowser)).toMatchObject({ method: 'code' })
		// Spread over ten more addresses, the guesses reach the account's ceiling (fifty in five minutes): a browser that
		// never passed the second factor is refused then, the owner's own (which has) is not.
		for (let a = 0; a < 10; a++) {
			const elsewhere = { address: testAddress(), trustedDevice: false }
			await Promise.allSettled(Array.from({ length: 5 }, () => verifySecondFactor(owner.id, '000000', elsewhere)))
		}
		await nextStep()
		await expect(verifySecondFactor(owner.id, await totp(secret), { address: testAddress(), trustedDevice: false })).rejects.toMatchObject({
			status: 429,
		})
		expect(await verifySecondFactor(owner.id, await totp(secret), { address: newBrowser.address, trustedDevice: true })).toMatchObject({
			method: 'code',
		})
	})

	test('turning it off needs a code and removes the secret and the recovery codes', async () => {
		const owner = await createUser()
		const { recoveryCodes } = await enrolled(owner.id, owner.email)
		await expect(disableTwoFactor(owner.id, 'nonsense-code', TEST_GUESSER)).rejects.toMatchObject({ status: 400 })
		await disableTwoFactor(owner.id, recoveryCodes[0]!, TEST_GUESSER)
		expect(await twoFactorState(owner.id)).toEqual({ enabled: false, enabledAt: null, recoveryCodesLeft: 0 })
	})

	test('passing the second factor on the page remembers the browser for it (and only for it)', async () => {
		const owner = await createUser()
		env.OWNER_EMAIL = owner.email.toLowerCase()
		const { secret } = await enrolled(owner.id, owner.email)
		await db.update(ownerSettings).set({ totpLastStep: 0 }).where(eq(ownerSettings.userId, owner.id))
		const cookie = await sessionCookie(owner.id)
		const { result } = await call(twoFactorPage.action, formRequest('/owner-panel/two-factor', { code: await totp(secret) }, { cookie }))
		const passed = await unwrap(result)
		expect(passed.status).toBe(302)
		const device = cookieFrom(passed.headers, 'hmh_device')!
		expect(await isTrustedDevice(getRequest('/', device), 'second-factor', owner.id)).toBe(true)
		expect(await isTrustedDevice(getRequest('/', device), 'signin', owner.email)).toBe(false)
		expect(await isTrustedDevice(getRequest('/', 'hmh_device=forged'), 'second-factor', owner.id)).toBe(false)
	})

	test('ownerAccess: the owner must enrol before anything of the admin area opens', async () => {
		const owner = await createUser()
		env.OWNER_EMAIL = owner.email.toLowerCase()
		const context = new RouterContextProvider()
		const access = await ownerAccess({ request: getRequest('/admin', await sessionCookie(owner.id)), context })
		expect(access.kind).toBe('enrol')
	})
})

describe('the legacy grant', () => {
	test('turning self-generation on or off is what /api/activate-free-access answers from then on', async () => {
		const person = await createUser()
		const owner = await createUser()
		const cookie = await sessionCookie(person.id)
		const ask = async () => (await json(activateFreeAccess.action, 'POST', '/api/activate-free-access', undefined, cookie)).status
		expect(await ask()).toBe(403)
		await setLegacyAccess(person.id, true, owner.id)
		expect(await ask()).toBe(200)
		await setLegacyAccess(person.id, false, owner.id)
		expect(await ask()).toBe(403)
	})
})
