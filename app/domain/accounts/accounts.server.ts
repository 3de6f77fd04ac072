import { randomUUID } from 'node:crypto'
import { and, eq, sql } from 'drizzle-orm'
import { db } from '#db/client.ts'
import { connections, users, type User } from '#db/schema.ts'
import { storage } from '#app/adapters/storage.server.ts'
import { env } from '#app/utils/env.server.ts'
import { hashPassword, verifyPassword } from '#app/utils/password.server.ts'

export const EMAIL_TAKEN = 'An account with this email already exists'
export const USERNAME_TAKEN = 'This username is already taken'
export const INVALID_LOGIN = 'Invalid email or password'

export function isOwnerEmail(email: string | null | undefined) {
	return Boolean(env.OWNER_EMAIL && email && email.toLowerCase() === env.OWNER_EMAIL)
}

export function publicUser(user: Pick<User, 'id' | 'firstName' | 'lastName' | 'email'>) {
	return {
		id: user.id,
		firstName: user.firstName,
		lastName: user.lastName,
		email: user.email,
		isOwner: isOwnerEmail(user.email),
	}
}
export type PublicUser = ReturnType<typeof publicUser>

export async function getPublicUser(userId: string) {
	const user = await db.query.users.findFirst({
		columns: { id: true, firstName: true, lastName: true, email: true },
		where: eq(users.id, userId),
	})
	return user ? publicUser(user) : null
}

function findByEmail(email: string) {
	return db.query.users.findFirst({ where: eq(sql`lower(${users.email})`, email.toLowerCase()) })
}

/** Which of e-mail and username already belong to an account. */
export async function takenFields(email: string, username: string) {
	const rows = await db
		.select({ email: users.email, username: users.username })
		.from(users)
		.where(sql`lower(${users.email}) = ${email.toLowerCase()} or lower(${users.username}) = ${username.toLowerCase()}`)
	return {
		email: rows.some((r) => r.email.toLowerCase() === email.toLowerCase()),
		username: rows.some((r) => r.username?.toLowerCase() === username.toLowerCase()),
	}
}

type SignupInput = { username: string; email: string; password: string }
export type SignupResult =
	| { ok: true; user: User }
	| { ok: false; errors: Partial<Record<'email' | 'username', string[]>> }

export async function createAccount(input: SignupInput): Promise<SignupResult> {
	const taken = await takenFields(input.email, input.username)
	if (taken.email || taken.username) return { ok: false, errors: takenErrors(taken) }
	const passwordHash = await hashPassword(input.password)
	try {
		const [user] = await db
			.insert(users)
			.values({ id: randomUUID(), username: input.username, email: input.email.toLowerCase(), passwordHash })
			.returning()
		return { ok: true, user: user! }
	} catch (error) {
		// A simultaneous signup won the race for the unique index.
		if (isUniqueViolation(error)) return { ok: false, errors: takenErrors(await takenFields(input.email, input.username)) }
		throw error
	}
}

function takenErrors(taken: { email: boolean; username: boolean }) {
	return {
		...(taken.email ? { email: [EMAIL_TAKEN] } : {}),
		...(taken.username ? { username: [USERNAME_TAKEN] } : {}),
	}
}

export function isUniqueViolation(error: unknown): boolean {
	const e = error as { code?: string; cause?: unknown } | null
	return e?.code === '23505' || (e?.cause != null && isUniqueViolation(e.cause))
}

export async function verifyLogin(email: string, password: string) {
	const user = await findByEmail(email)
	const valid = await verifyPassword(password, user?.passwordHash)
	return valid && user ? user : null
}

export type OidcProfile = {
	provider: string
	subject: string
	email: string
	emailVerified: boolean
	firstName?: string
	lastName?: string
}

export class AccountLinkError extends Error {}

/** Signs in through a provider: the known connection, else the account with that (verified) e-mail, else a new account. */
export async function findOrCreateOidcUser(profile: OidcProfile) {
	return db.transaction(async (tx) => {
		const [linked] = await tx
			.select({ user: users })
			.from(connections)
			.innerJoin(users, eq(users.id, connections.userId))
			.where(and(eq(connections.providerName, profile.provider), eq(connections.providerId, profile.subject)))
		if (linked) return linked.user
		const existing = await tx.query.users.findFirst({ where: eq(sql`lower(${users.email})`, profile.email.toLowerCase()) })
		if (existing && !profile.emailVerified)
			throw new AccountLinkError('Your sign-in provider has not verified this e-mail address, so it cannot be linked to your account.')
		const user =
			existing ??
			(
				await tx
					.insert(users)
					.values({
						id: randomUUID(),
						email: profile.email.toLowerCase(),
						firstName: profile.firstName ?? null,
						lastName: profile.lastName ?? null,
					})
					.returning()
			)[0]!
		await tx.insert(connections).values({ providerName: profile.provider, providerId: profile.subject, userId: user.id })
		return user
	})
}

export function signupNotice() {
	return env.oidcEnabled
		? 'Please complete authentication through our secure login system.'
		: 'Your account has been created. Please sign in.'
}

/**
 * Deletes the person: their uploaded files first (all under their storage prefix), then the account row, whose
 * foreign keys remove sessions, profiles and every section, consents and carts, and unlink codes, orders and donations.
 */
export async function deleteAccount(userId: string) {
	await storage.deletePrefix(`users/${userId}/`)
	await db.delete(users).where(eq(users.id, userId))
}
