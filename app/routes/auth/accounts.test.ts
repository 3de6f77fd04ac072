import { randomUUID } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { db } from '#db/client.ts'
import { connections, rateLimits, sessions, signIns, users } from '#db/schema.ts'
import * as apiSignup from '#app/routes/api/signup.ts'
import * as apiUser from '#app/routes/api/auth-user.ts'
import * as apiLogout from '#app/routes/api/auth-logout.ts'
import * as link from '#app/routes/auth/link.tsx'
import * as login from '#app/routes/auth/login.tsx'
import * as signup from '#app/routes/auth/signup.tsx'
import { env } from '#app/utils/env.server.ts'
import { accountKey, TOO_MANY_ATTEMPTS } from '#app/utils/rate-limit.server.ts'
import type { PendingLink } from '#app/utils/session.server.ts'
import {
	call,
	cookieFrom,
	createUser,
	formRequest,
	getRequest,
	jsonRequest,
	sessionCookie,
	TEST_PASSWORD,
	testAddress,
	uniqueEmail,
	unwrap,
} from '#tests/factories.ts'

const countUsers = async (email: string) =>
	(
		await db
			.select({ n: sql<number>`count(*)::int` })
			.from(users)
			.where(eq(sql`lower(${users.email})`, email.toLowerCase()))
	)[0]!.n

describe('signup page', () => {
	test('a filled honeypot is answered as a person would be, and no account is made', async () => {
		const email = uniqueEmail('honeypot')
		const fields = { username: `h${Date.now()}`, email, password: 'abcdefg1!', consent: 'on', website: 'https://spam.example' }
		const response = await unwrap((await call(signup.action, formRequest('/signup', fields))).result)
		expect(response.status).toBe(302)
		expect(response).toHaveRedirect('/api/login')
		expect(await db.query.users.findFirst({ where: eq(users.email, email) })).toBeUndefined()
	})

	test('creates one local account with a hashed password, then sends the person to sign in', async () => {
		const email = uniqueEmail('signup')
		const { result } = await call(
			signup.action,
			formRequest('/signup', { username: `u${Date.now()}`, email, password: 'abcdefg1!', consent: 'on' }),
		)
		const response = await unwrap(result)
		expect(response.status).toBe(302)
		expect(response).toHaveRedirect('/api/login')
		const user = await db.query.users.findFirst({ where: eq(users.email, email) })
		expect(user?.passwordHash).toMatch(/^scrypt\$/)
		expect(user?.passwordHash).not.toContain('abcdefg1!')
	})

	test('a taken e-mail (any case) or username gets a field error and no second account', async () => {
		const existing = await createUser()
		const { result } = await call(
			signup.action,
			formRequest('/signup', { username: 'someone-new', email: existing.email.toUpperCase(), password: 'abcdefg1!', consent: 'on' }),
		)
		const response = await unwrap(result)
		expect(response.status).toBe(400)
		expect(JSON.stringify(response.body)).toContain('An account with this email already exists')
		expect(await countUsers(existing.email)).toBe(1)

		const byName = await unwrap(
			(
				await call(
					signup.action,
					formRequest('/signup', {
						username: existing.username!.toUpperCase(),
						email: uniqueEmail(),
						password: 'abcdefg1!',
						consent: 'on',
					}),
				)
			).result,
		)
		expect(JSON.stringify(byName.body)).toContain('This username is already taken')
	})

	test('invalid fields answer 400 with the spec messages and create nothing', async () => {
		const email = uniqueEmail('bad')
		const response = await unwrap((await call(signup.action, formRequest('/signup', { username: 'ab', email, password: 'short' }))).result)
		expect(response.status).toBe(400)
		const text = JSON.stringify(response.body)
		expect(text).toContain('Username must be at least 3 characters')
		expect(text).toContain('You must agree to the terms to continue')
		expect(text).toContain('Password must contain at least one number')
		expect(await countUsers(email)).toBe(0)
	})

	test('two simultaneous signups with one e-mail leave exactly one account', async () => {
		const email = uniqueEmail('race')
		const attempts = await Promise.all(
			[1, 2, 3].map((i) =>
				call(signup.action, formRequest('/signup', { username: `race${i}-${Date.now()}`, email, password: 'abcdefg1!', consent: 'on' })),
			),
		)
		const statuses = await Promise.all(attempts.map(async (a) => (await unwrap(a.result)).status))
		expect(statuses.filter((s) => s === 302)).toHaveLength(1)
		expect(await countUsers(email)).toBe(1)
	})
})

describe('POST /api/signup', () => {
	test('answers the documented JSON', async () => {
		const response = await unwrap(
			(
				await call(
					apiSignup.action,
					jsonRequest('/api/signup', { username: `api${Date.now()}`, email: uniqueEmail('api'), password: 'abcdefg1!', consent: true }),
				)
			).result,
		)
		expect(response.status).toBe(201)
		expect(response.body).toMatchObject({ notice: expect.any(String), message: expect.any(String) })
	})

	test('bad JSON and invalid fields are 4xx with a message', async () => {
		expect((await unwrap((await call(apiSignup.action, jsonRequest('/api/signup', '{not json'))).result)).status).toBe(400)
		const invalid = await unwrap(
			(await call(apiSignup.action, jsonRequest('/api/signup', { username: 'a', email: 'x', password: 'y', consent: false }))).result,
		)
		expect(invalid.status).toBe(400)
		expect(invalid.body).toMatchObject({ message: expect.any(String), errors: expect.any(Object) })
		const existing = await createUser()
		const taken = await unwrap(
			(
				await call(
					apiSignup.action,
					jsonRequest('/api/signup', { username: 'fresh-name-x', email: existing.email, password: 'abcdefg1!', consent: true }),
				)
			).result,
		)
		expect(taken.status).toBe(409)
		expect(taken.body).toMatchObject({ message: 'An account with this email already exists' })
	})
})

describe('sign-in and sessions', () => {
	test('a filled honeypot gets the wrong-password answer, even with the right password, and no session', async () => {
		const user = await createUser()
		const fields = { email: user.email, password: TEST_PASSWORD, website: 'https://spam.example' }
		const response = await unwrap((await call(login.action, formRequest('/login', fields))).result)
		expect(response.status).toBe(400)
		expect(JSON.stringify(response.body)).toContain('Invalid email or password')
		expect(response.headers.get('set-cookie')).toBeNull()
		expect(await db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0)
	})

	test('right password: a new session row, a signed cookie with only its id, and the requested local page', async () => {
		const user = await createUser()
		const { result } = await call(
			login.action,
			formRequest('/login', { email: user.email.toUpperCase(), password: TEST_PASSWORD, redirectTo: '/dashboard' }),
		)
		const response = await unwrap(result)
		expect(response.status).toBe(302)
		expect(response).toHaveRedirect('/dashboard')
		const setCookie = response.headers.getSetCookie().find((c) => c.startsWith('hmh_session='))!
		expect(setCookie).toMatch(/HttpOnly/i)
		expect(setCookie).toMatch(/SameSite=Lax/i)
		const rows = await db.select().from(sessions).where(eq(sessions.userId, user.id))
		expect(rows).toHaveLength(1)
		const signedValue = decodeURIComponent(setCookie.split(';')[0]!.split('=')[1]!)
		expect(JSON.parse(Buffer.from(signedValue.split('.')[0]!, 'base64').toString())).toBe(rows[0]!.id)
		expect(signedValue).not.toContain(user.id)
	})

	test('an off-site redirectTo is ignored', async () => {
		const user = await createUser()
		const response = await unwrap(
			(await call(login.action, formRequest('/login', { email: user.email, password: TEST_PASSWORD, redirectTo: '//evil.example/x' })))
				.result,
		)
		expect(response).toHaveRedirect('/dashboard')
	})

	test('wrong password or unknown e-mail: one message, no session', async () => {
		const user = await createUser()
		for (const fields of [
			{ email: user.email, password: 'Wrong-pass-1!' },
			{ email: uniqueEmail('nobody'), password: TEST_PASSWORD },
		]) {
			const response = await unwrap((await call(login.action, formRequest('/login', fields))).result)
			expect(response.status).toBe(400)
			expect(JSON.stringify(response.body)).toContain('Invalid email or password')
		}
		expect(await db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0)
	})

	test('a refusal keeps the e-mail typed and never sends the password back', async () => {
		const user = await createUser()
		const wrong = await unwrap((await call(login.action, formRequest('/login', { email: user.email, password: 'Wrong-pass-1!' }))).result)
		expect(wrong.body).toMatchObject({ result: { initialValue: { email: user.email }, error: { '': ['Invalid email or password'] } } })
		expect(JSON.stringify(wrong.body)).not.toContain('Wrong-pass-1!')
	})

	test('past the account’s ceiling even the right password waits: 429 with Retry-After, the e-mail kept', async () => {
		const user = await createUser()
		const ceiling = { count: 100, resetAt: sql`now() + interval '1 minute'` }
		await db
			.insert(rateLimits)
			.values({ key: accountKey('signin-account', user.email), ...ceiling })
			.onConflictDoUpdate({ target: rateLimits.key, set: ceiling })
		const fields = { email: user.email, password: TEST_PASSWORD }
		const refused = await unwrap((await call(login.action, formRequest('/login', fields), {}, testAddress())).result)
		expect(refused.status).toBe(429)
		expect(refused.headers.get('retry-after')).toMatch(/^\d+$/)
		expect(refused.body).toMatchObject({ result: { initialValue: { email: user.email }, error: { '': [TOO_MANY_ATTEMPTS] } } })
		expect(JSON.stringify(refused.body)).not.toContain(TEST_PASSWORD)
		expect(await db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0)
	})

	test('signing in replaces the guest session id and keeps a pending PIN', async () => {
		const user = await createUser()
		const { sessionStorage } = await import('#app/utils/session.server.ts')
		const guest = await sessionStorage.getSession()
		guest.set('pendingPin', 'ABCD2345')
		const guestCookie = (await sessionStorage.commitSession(guest)).split(';')[0]!
		const response = await unwrap(
			(await call(login.action, formRequest('/login', { email: user.email, password: TEST_PASSWORD }, { cookie: guestCookie }))).result,
		)
		expect(response).toHaveRedirect('/claim/ABCD2345')
		const newCookie = cookieFrom(response.headers, 'hmh_session')!
		expect(newCookie).not.toBe(guestCookie)
		expect(await db.select().from(sessions).where(eq(sessions.id, guest.id))).toHaveLength(0)
	})

	test('GET /api/auth/user: the documented fields when signed in, 401 JSON when not', async () => {
		const user = await createUser({ firstName: 'Ada', lastName: 'Lovelace' })
		const cookie = await sessionCookie(user.id)
		const me = await unwrap((await call(apiUser.loader, getRequest('/api/auth/user', cookie))).result)
		expect(me.status).toBe(200)
		expect(me.body).toEqual({ id: user.id, firstName: 'Ada', lastName: 'Lovelace', email: user.email, isOwner: false })
		const anonymous = await unwrap((await call(apiUser.loader, getRequest('/api/auth/user'))).result)
		expect(anonymous.status).toBe(401)
		expect(anonymous.body).toMatchObject({ message: expect.any(String) })
	})

	test('logout ends the session row, so the same cookie is signed out everywhere', async () => {
		const user = await createUser()
		const cookie = await sessionCookie(user.id)
		const response = await unwrap((await call(apiLogout.action, formRequest('/api/auth/logout', {}, { cookie }))).result)
		expect(response.status).toBe(302)
		expect(response).toHaveRedirect('/auth')
		expect(await db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0)
		const after = await unwrap((await call(apiUser.loader, getRequest('/api/auth/user', cookie))).result)
		expect(after.status).toBe(401)
	})

	test('a tampered cookie is no session', async () => {
		const user = await createUser()
		const cookie = await sessionCookie(user.id)
		// The signed value's first character, not its last: a last base64 character may carry only padding bits.
		const tampered = cookie.replace(/=(.)/, (_match, c: string) => `=${c === 'A' ? 'B' : 'A'}`)
		const response = await unwrap((await call(apiUser.loader, getRequest('/api/auth/user', tampered))).result)
		expect(response.status).toBe(401)
	})
})

describe('each sign-in is recorded', () => {
	test('with the client address; the session remembers which sign-in started it', async () => {
		const user = await createUser()
		const { result } = await call(login.action, formRequest('/login', { email: user.email, password: TEST_PASSWORD }), {}, '203.0.113.77')
		const cookie = cookieFrom((await unwrap(result)).headers, 'hmh_session')!
		const [row] = await db.select().from(signIns).where(eq(signIns.userId, user.id))
		expect(row).toMatchObject({ ipAddress: '203.0.113.77', city: null, region: null, country: null })
		const { sessionStorage } = await import('#app/utils/session.server.ts')
		expect((await sessionStorage.getSession(cookie)).get('signInId')).toBe(row!.id)
	})
})

describe('linking a provider’s sign-in to an existing account with its password (/auth/link)', () => {
	async function pendingLinkCookie(email: string, overrides: Partial<PendingLink> = {}) {
		const { sessionStorage } = await import('#app/utils/session.server.ts')
		const session = await sessionStorage.getSession()
		const pending: PendingLink = {
			provider: 'test-provider',
			subject: randomUUID(),
			email,
			emailVerified: true,
			providerVerified: true,
			accountVerified: false,
			hasPassword: true,
			at: Date.now(),
			...overrides,
		}
		session.set('pendingLink', pending)
		return { cookie: (await sessionStorage.commitSession(session)).split(';')[0]!, pending }
	}

	async function withOidc<T>(run: () => Promise<T>) {
		const saved = env.oidcEnabled
		env.oidcEnabled = true
		try {
			return await run()
		} finally {
			env.oidcEnabled = saved
		}
	}

	test('without a provider configured, or without a sign-in waiting, there is nothing to link', async () => {
		const user = await createUser()
		const { cookie } = await pendingLinkCookie(user.email)
		expect(await unwrap((await call(link.loader, getRequest('/auth/link', cookie))).result)).toHaveRedirect('/login')
		await withOidc(async () => {
			const none = await unwrap((await call(link.loader, getRequest('/auth/link'))).result)
			expect(none).toHaveRedirect('/auth')
			await expect(none).toSendToast({ title: 'Sign-in failed' })
			const stale = await pendingLinkCookie(user.email, { at: Date.now() - 16 * 60 * 1000 })
			expect(await unwrap((await call(link.loader, getRequest('/auth/link', stale.cookie))).result)).toHaveRedirect('/auth')
		})
	})

	test('the page says why; the wrong password links nothing, the right one links and signs in', async () => {
		const user = await createUser()
		const { cookie, pending } = await pendingLinkCookie(user.email)
		await withOidc(async () => {
			const page = await unwrap((await call(link.loader, getRequest('/auth/link', cookie))).result)
			expect(page.body).toMatchObject({ email: user.email, hasPassword: true, providerVerified: true, accountVerified: false })

			const wrong = await unwrap((await call(link.action, formRequest('/auth/link', { password: 'Wrong-pass-1!' }, { cookie }))).result)
			expect(wrong.status).toBe(400)
			expect(JSON.stringify(wrong.body)).toContain('Invalid email or password')
			const empty = await unwrap((await call(link.action, formRequest('/auth/link', { password: '' }, { cookie }))).result)
			expect(JSON.stringify(empty.body)).toContain('Password is required')
			expect(await db.select().from(connections).where(eq(connections.userId, user.id))).toHaveLength(0)

			const linked = await unwrap((await call(link.action, formRequest('/auth/link', { password: TEST_PASSWORD }, { cookie }))).result)
			expect(linked).toHaveRedirect('/dashboard')
			expect(await db.select().from(connections).where(eq(connections.userId, user.id))).toMatchObject([
				{ providerName: 'test-provider', providerId: pending.subject },
			])
			const { sessionStorage } = await import('#app/utils/session.server.ts')
			const session = await sessionStorage.getSession(cookieFrom(linked.headers, 'hmh_session'))
			expect(session.get('userId')).toBe(user.id)
			expect(session.get('pendingLink')).toBeUndefined()
			expect((await db.query.users.findFirst({ where: eq(users.id, user.id) }))!.emailVerifiedAt).toBeInstanceOf(Date)
		})
	})
})
