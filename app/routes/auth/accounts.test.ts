import { eq, sql } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { db } from '#db/client.ts'
import { sessions, users } from '#db/schema.ts'
import * as apiSignup from '#app/routes/api/signup.ts'
import * as apiUser from '#app/routes/api/auth-user.ts'
import * as apiLogout from '#app/routes/api/auth-logout.ts'
import * as login from '#app/routes/auth/login.tsx'
import * as signup from '#app/routes/auth/signup.tsx'
import {
	call,
	cookieFrom,
	createUser,
	formRequest,
	getRequest,
	jsonRequest,
	sessionCookie,
	TEST_PASSWORD,
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
