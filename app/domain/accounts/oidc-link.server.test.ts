import { randomUUID } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { db } from '#db/client.ts'
import { connections, users } from '#db/schema.ts'
import type { OidcIdentity } from '#app/adapters/identity.server.ts'
import { createUser, TEST_GUESSER, TEST_PASSWORD, uniqueEmail } from '#tests/factories.ts'
import { findOrCreateOidcUser, INVALID_LOGIN, linkOidcIdentity } from './accounts.server.ts'

const identity = (email: string, emailVerified: boolean): OidcIdentity => ({
	provider: 'test-provider',
	subject: randomUUID(),
	email,
	emailVerified,
	firstName: 'Grace',
	lastName: 'Provider',
})

const connectionOf = (who: OidcIdentity) =>
	db.query.connections.findFirst({
		where: and(eq(connections.providerName, who.provider), eq(connections.providerId, who.subject)),
	})

describe('signing in through a provider with the e-mail of an existing account', () => {
	test('links silently only when the provider and this site have both verified the address', async () => {
		const account = await createUser({ emailVerifiedAt: new Date() })
		const who = identity(account.email.toUpperCase(), true)
		const signIn = await findOrCreateOidcUser(who)
		expect(signIn).toMatchObject({ kind: 'user', user: { id: account.id } })
		expect(await connectionOf(who)).toMatchObject({ userId: account.id })
		// The next sign-in finds the connection, whatever the address now says.
		expect(await findOrCreateOidcUser({ ...who, emailVerified: false })).toMatchObject({ kind: 'user', user: { id: account.id } })
	})

	test('an address this site never verified is not linked, even when the provider vouches for it', async () => {
		const account = await createUser()
		const who = identity(account.email, true)
		expect(await findOrCreateOidcUser(who)).toEqual({
			kind: 'link-needed',
			email: account.email,
			hasPassword: true,
			providerVerified: true,
			accountVerified: false,
		})
		expect(await connectionOf(who)).toBeUndefined()
	})

	test('an address the provider has not verified is not linked, even to a verified account', async () => {
		const account = await createUser({ emailVerifiedAt: new Date(), passwordHash: null })
		const who = identity(account.email, false)
		expect(await findOrCreateOidcUser(who)).toMatchObject({
			kind: 'link-needed',
			hasPassword: false,
			providerVerified: false,
			accountVerified: true,
		})
		expect(await connectionOf(who)).toBeUndefined()
	})

	test('with the account’s password the person links it; the provider’s word then verifies the address', async () => {
		const account = await createUser()
		const who = identity(account.email, true)
		await expect(linkOidcIdentity(who, 'Wrong-pass-1!', TEST_GUESSER)).rejects.toMatchObject({ message: INVALID_LOGIN, status: 400 })
		expect(await connectionOf(who)).toBeUndefined()

		const linked = await linkOidcIdentity(who, TEST_PASSWORD, TEST_GUESSER)
		expect(linked).toMatchObject({ id: account.id })
		expect(await connectionOf(who)).toMatchObject({ userId: account.id })
		expect((await db.query.users.findFirst({ where: eq(users.id, account.id) }))!.emailVerifiedAt).toBeInstanceOf(Date)
		expect(await findOrCreateOidcUser(who)).toMatchObject({ kind: 'user', user: { id: account.id } })
		// Linking twice (a second tab) is harmless.
		expect(await linkOidcIdentity(who, TEST_PASSWORD, TEST_GUESSER)).toMatchObject({ id: account.id })
	})

	test('linked through a provider that did not verify the address, the account stays unverified', async () => {
		const account = await createUser()
		const who = identity(account.email, false)
		expect(await linkOidcIdentity(who, TEST_PASSWORD, TEST_GUESSER)).toMatchObject({ id: account.id })
		expect((await db.query.users.findFirst({ where: eq(users.id, account.id) }))!.emailVerifiedAt).toBeNull()
	})
})

describe('a new person signing in through a provider', () => {
	test('gets an account, verified when the provider verified the address', async () => {
		const verified = await findOrCreateOidcUser(identity(uniqueEmail('oidc-verified'), true))
		expect(verified.kind === 'user' && verified.user.emailVerifiedAt).toBeInstanceOf(Date)
		const unverified = await findOrCreateOidcUser(identity(uniqueEmail('oidc-unverified'), false))
		expect(unverified).toMatchObject({ kind: 'user', user: { emailVerifiedAt: null, firstName: 'Grace' } })
	})

	test('a local signup is not verified: nobody has opened a link sent to it', async () => {
		const user = await createUser()
		expect(user.emailVerifiedAt).toBeNull()
	})
})
