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
import { createUser, getRequest, sessionCookie, testAddress, unwrap } from '#tests/factories.ts'

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
	const { recoveryCodes } = await confirmEnrolment(userId, otp)
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
	test('only the owner past the second factor and a token session get in, on every admin route and method', async () => {
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
	})

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
		await expect(confirmEnrolment(owner.id, '000000')).rejects.toMatchObject({ status: 400, message: WRONG_CODE })
		const { recoveryCodes } = await confirmEnrolment(owner.id, await totp(secret))
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
		await confirmEnrolment(owner.id, first)
		// The code that confirmed enrolment cannot sign in a second time (even once its time step has passed, it is
		// still within the ±1 step window, and refused).
		await expect(verifySecondFactor(owner.id, first)).rejects.toMatchObject({ status: 400, message: WRONG_CODE })
		// Past its time step, the next code works, once.
		await db
			.update(ownerSettings)
			.set({ totpLastStep: Math.floor(Date.now() / 30_000) - 2 })
			.where(eq(ownerSettings.userId, owner.id))
		const code = await totp(secret)
		expect(await verifySecondFactor(owner.id, code)).toMatchObject({ method: 'code' })
		const twice = await Promise.allSettled([verifySecondFactor(owner.id, code), verifySecondFactor(owner.id, code)])
		expect(twice.every((r) => r.status === 'rejected')).toBe(true)
	})

	test('a recovery code works once, typed in any case and without the dash', async () => {
		const owner = await createUser()
		const { recoveryCodes } = await enrolled(owner.id, owner.email)
		const typed = recoveryCodes[3]!.replace('-', '').toLowerCase()
		expect(await verifySecondFactor(owner.id, typed)).toEqual({ method: 'recovery', recoveryCodesLeft: 9 })
		await expect(verifySecondFactor(owner.id, recoveryCodes[3]!)).rejects.toMatchObject({ status: 400 })
		expect((await twoFactorState(owner.id)).recoveryCodesLeft).toBe(9)
	})

	test('codes are limited: after five attempts in five minutes (enrolment included), even the right one is refused', async () => {
		const owner = await createUser()
		const { secret } = await enrolled(owner.id, owner.email)
		for (let i = 0; i < 4; i++) await expect(verifySecondFactor(owner.id, '123456')).rejects.toMatchObject({ status: 400 })
		await db.update(ownerSettings).set({ totpLastStep: 0 }).where(eq(ownerSettings.userId, owner.id))
		await expect(verifySecondFactor(owner.id, await totp(secret))).rejects.toMatchObject({ status: 429 })
	})

	test('turning it off needs a code and removes the secret and the recovery codes', async () => {
		const owner = await createUser()
		const { recoveryCodes } = await enrolled(owner.id, owner.email)
		await expect(disableTwoFactor(owner.id, 'nonsense-code')).rejects.toMatchObject({ status: 400 })
		await disableTwoFactor(owner.id, recoveryCodes[0]!)
		expect(await twoFactorState(owner.id)).toEqual({ enabled: false, enabledAt: null, recoveryCodesLeft: 0 })
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
