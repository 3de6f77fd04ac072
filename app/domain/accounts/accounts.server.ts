import { randomUUID } from 'node:crypto'
import { and, eq, isNull, or, sql } from 'drizzle-orm'
import { db } from '#db/client.ts'
import { auditLog, connections, donations, emails, orders, qrCodes, qrRequests, users, visits, type User } from '#db/schema.ts'
import { releaseStickers } from '#app/domain/qr/manage.server.ts'
import { messagesTo } from '#app/adapters/mail.server.ts'
import { storage } from '#app/adapters/storage.server.ts'
import { env } from '#app/utils/env.server.ts'
import { hashPassword, verifyPassword } from '#app/utils/password.server.ts'
import { countGuess, TOO_MANY_ATTEMPTS, type GuessSource } from '#app/utils/rate-limit.server.ts'
import type { OidcIdentity } from '#app/adapters/identity.server.ts'
import { DomainError } from '#app/utils/errors.ts'

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
	const user = await getSignedInUser(userId)
	return user ? publicUser(user) : null
}

/** Everything a request needs to know about the person signed in, in one read. */
export async function getSignedInUser(userId: string) {
	const user = await db.query.users.findFirst({
		columns: { id: true, firstName: true, lastName: true, email: true, isGrandfathered: true },
		where: eq(users.id, userId),
	})
	return user ? { ...publicUser(user), isGrandfathered: user.isGrandfathered } : null
}
export type SignedInUser = NonNullable<Awaited<ReturnType<typeof getSignedInUser>>>

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

/** firstVisitOn: the first-visit date the browser's analytics cookie carried, if any (signups from a first visit). */
type SignupInput = { username: string; email: string; password: string; firstVisitOn?: string | null }
export type TakenErrors = Partial<Record<'email' | 'username', string[]>>
/**
 * A new account, or the fields already taken. Not a DomainError: both the e-mail and the username may be taken at
 * once, and the signup page shows each beside its field (the JSON answer lists both under `errors`).
 */
export type SignupResult = { outcome: 'created'; user: User } | { outcome: 'taken'; errors: TakenErrors }

export async function createAccount(input: SignupInput): Promise<SignupResult> {
	const taken = await takenFields(input.email, input.username)
	if (taken.email || taken.username) return { outcome: 'taken', errors: takenErrors(taken) }
	const passwordHash = await hashPassword(input.password)
	try {
		const [user] = await db
			.insert(users)
			.values({
				id: randomUUID(),
				username: input.username,
				email: input.email.toLowerCase(),
				passwordHash,
				firstVisitOn: input.firstVisitOn ?? null,
			})
			.returning()
		return { outcome: 'created', user: user! }
	} catch (error) {
		// A simultaneous signup won the race for the unique index.
		if (isUniqueViolation(error)) return { outcome: 'taken', errors: takenErrors(await takenFields(input.email, input.username)) }
		throw error
	}
}

function takenErrors(taken: { email: boolean; username: boolean }): TakenErrors {
	return {
		...(taken.email ? { email: [EMAIL_TAKEN] } : {}),
		...(taken.username ? { username: [USERNAME_TAKEN] } : {}),
	}
}

export function isUniqueViolation(error: unknown): boolean {
	const e = error as { code?: string; cause?: unknown } | null
	return e?.code === '23505' || (e?.cause != null && isUniqueViolation(e.cause))
}

/**
 * Checks a password and answers the account it opens. Wrong ones are counted per account and address, with a ceiling
 * per account over all addresses (countGuess): past either, even the right password is refused (429) until the minute
 * is over, and no password is hashed meanwhile; the right one does not count. A wrong password or an unknown e-mail is
 * one refusal (400), so neither tells which accounts exist.
 */
export async function verifyLogin(email: string, password: string, source: GuessSource): Promise<User> {
	const guess = await countGuess('signin', email.trim().toLowerCase(), source, env.RATE_LIMIT_STRICT_PER_MINUTE)
	if (!guess.allowed) throw new DomainError(429, TOO_MANY_ATTEMPTS, undefined, guess.retryAfterSeconds)
	const user = await findByEmail(email)
	const valid = await verifyPassword(password, user?.passwordHash)
	if (!valid || !user) throw new DomainError(400, INVALID_LOGIN)
	await guess.forgive()
	return user
}

/**
 * Who a provider's sign-in is: an account (found by its connection, linked, or new), or an existing account with the
 * same e-mail that is not linked silently, because the provider or this site has not verified the address. The person
 * then proves the account is theirs with its password (linkOidcIdentity).
 */
export type OidcSignIn =
	| { kind: 'user'; user: User }
	| { kind: 'link-needed'; email: string; hasPassword: boolean; providerVerified: boolean; accountVerified: boolean }

/**
 * The known connection; else the account with that e-mail, linked only when both the provider and this site have
 * verified the address; else a new account (verified when the provider says so).
 */
export async function findOrCreateOidcUser(profile: OidcIdentity, firstVisitOn: string | null = null): Promise<OidcSignIn> {
	return db.transaction(async (tx) => {
		const [linked] = await tx
			.select({ user: users })
			.from(connections)
			.innerJoin(users, eq(users.id, connections.userId))
			.where(and(eq(connections.providerName, profile.provider), eq(connections.providerId, profile.subject)))
		if (linked) return { kind: 'user', user: linked.user } as const
		const existing = await tx.query.users.findFirst({ where: eq(sql`lower(${users.email})`, profile.email.toLowerCase()) })
		if (existing && !(profile.emailVerified && existing.emailVerifiedAt))
			return {
				kind: 'link-needed',
				email: existing.email,
				hasPassword: Boolean(existing.passwordHash),
				providerVerified: profile.emailVerified,
				accountVerified: Boolean(existing.emailVerifiedAt),
			} as const
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
						firstVisitOn,
						emailVerifiedAt: profile.emailVerified ? new Date() : null,
					})
					.returning()
			)[0]!
		await tx.insert(connections).values({ providerName: profile.provider, providerId: profile.subject, userId: user.id })
		return { kind: 'user', user } as const
	})
}

/**
 * Links a provider's identity to the existing account with its e-mail once the person has given that account's
 * password (limited like any sign-in). The provider's word that the address is theirs, together with the password,
 * verifies the account's address too.
 */
export async function linkOidcIdentity(profile: OidcIdentity, password: string, source: GuessSource): Promise<User> {
	const user = await verifyLogin(profile.email, password, source)
	await db.transaction(async (tx) => {
		await tx
			.insert(connections)
			.values({ providerName: profile.provider, providerId: profile.subject, userId: user.id })
			.onConflictDoNothing()
		if (profile.emailVerified && !user.emailVerifiedAt)
			await tx
				.update(users)
				.set({ emailVerifiedAt: sql`now()` })
				.where(eq(users.id, user.id))
	})
	return user
}

export function signupNotice() {
	return env.oidcEnabled
		? 'Please complete authentication through our secure login system.'
		: 'Your account has been created. Please sign in.'
}

export const USER_NOT_FOUND = 'User not found'

/** Saves first and last name only when one of them changed, and says whether they did. */
export async function updateName(userId: string, input: { firstName: string | null; lastName: string | null }) {
	const current = await db.query.users.findFirst({ columns: { firstName: true, lastName: true }, where: eq(users.id, userId) })
	if (!current) throw new DomainError(404, USER_NOT_FOUND)
	const changed = current.firstName !== input.firstName || current.lastName !== input.lastName
	if (changed) await db.update(users).set(input).where(eq(users.id, userId))
	return { changed }
}

/**
 * Deletes the person and everything of theirs. Uploaded files go first (all under their storage prefix); then, in
 * one transaction: their orders and donations are kept for the foundation's records but stripped of name, e-mail
 * and address (orders not yet shipped are cancelled, since they can no longer be delivered); their free-code
 * requests, e-mails, visits' addresses and audit entries' addresses go; self-made codes are deleted and printed
 * stickers return to unclaimed with their scan history removed; finally the account row, whose foreign keys remove
 * sessions, sign-in links, profiles and every section, consents, carts and subscriptions.
 */
export async function deleteAccount(userId: string) {
	const user = await db.query.users.findFirst({ columns: { email: true }, where: eq(users.id, userId) })
	if (!user) return false
	await storage.deletePrefix(`users/${userId}/`)
	const email = user.email.toLowerCase()
	await db.transaction(async (tx) => {
		await tx
			.update(orders)
			.set({
				customerName: null,
				customerEmail: DELETED_ACCOUNT,
				shippingAddress: null,
				fulfillmentStatus: sql`case when ${orders.fulfillmentStatus} in ('pending', 'processing') then 'cancelled' else ${orders.fulfillmentStatus} end`,
			})
			.where(or(eq(orders.userId, userId), eq(sql`lower(${orders.customerEmail})`, email)))
		await tx
			.update(donations)
			.set({ donorName: null, donorEmail: null })
			.where(or(eq(donations.userId, userId), eq(sql`lower(${donations.donorEmail})`, email)))
		await tx.delete(qrRequests).where(or(eq(qrRequests.userId, userId), eq(sql`lower(${qrRequests.email})`, email)))
		await tx.delete(emails).where(or(eq(emails.userId, userId), messagesTo(email)))
		await tx.update(visits).set({ userId: null, ipAddress: null }).where(eq(visits.userId, userId))
		await tx.update(auditLog).set({ actorUserId: null, ipAddress: null }).where(eq(auditLog.actorUserId, userId))
		await tx.delete(qrCodes).where(and(eq(qrCodes.userId, userId), isNull(qrCodes.pin)))
		await releaseStickers(tx, eq(qrCodes.userId, userId))
		await tx.delete(users).where(eq(users.id, userId))
	})
	return true
}

/** What a deleted account's orders keep in place of the e-mail (the column is required). */
export const DELETED_ACCOUNT = 'deleted-account'
