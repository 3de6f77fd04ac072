import { createHash, randomBytes } from 'node:crypto'
import { and, eq, gt, lte, ne, sql } from 'drizzle-orm'
import { db, type Executor } from '#db/client.ts'
import { emailChanges, sessions, users } from '#db/schema.ts'
import { sendEmail } from '#app/adapters/mail.server.ts'
import { env } from '#app/utils/env.server.ts'
import { DomainError } from '#app/utils/errors.ts'
import { accountKey, hit, TOO_MANY_ATTEMPTS } from '#app/utils/rate-limit.server.ts'
import { EMAIL_TAKEN, isUniqueViolation } from './accounts.server.ts'
import { LINK_NOT_VALID } from './messages.ts'
import { EMAIL_UNCHANGED } from './schemas.ts'

export { LINK_NOT_VALID }

/** How long the link sent to a new address works. */
export const EMAIL_CHANGE_HOURS = 24
export const EMAIL_CHANGE_PATH = '/account/confirm-email'

export const ACCOUNT_NOT_FOUND = 'Your account could not be found.'
export const ADDRESS_TAKEN_MEANWHILE = 'This address now belongs to another account, so your email was not changed.'

/** The link carries the token; the database keeps only its hash, so a copy of the table confirms nothing. */
const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url')

const greeting = (firstName: string | null) => `Hello${firstName ? ` ${firstName}` : ''},`
const profileUrl = () => new URL('/dashboard/profile', env.PUBLIC_URL).toString()

export type EmailChangeRequest = { email: string; expiresAt: Date }

/**
 * Asks for a new address: nothing changes until the link sent there is opened. A new request replaces the one before
 * (its link stops working). The current address is told that a change was asked for. Each refusal belongs beside the
 * `email` field: no account (404), the same address (400), another account's (409), too many requests (429).
 */
export async function requestEmailChange(userId: string, email: string): Promise<EmailChangeRequest> {
	const newEmail = email.trim().toLowerCase()
	const current = await db.query.users.findFirst({ columns: { email: true, firstName: true }, where: eq(users.id, userId) })
	if (!current) throw new DomainError(404, ACCOUNT_NOT_FOUND, 'email')
	if (current.email.toLowerCase() === newEmail) throw new DomainError(400, EMAIL_UNCHANGED, 'email')
	if (await addressInUse(newEmail, userId)) throw new DomainError(409, EMAIL_TAKEN, 'email')
	// Each request mails two addresses, one of them chosen by whoever holds the session: a ceiling per account and hour,
	// whichever addresses the requests come from.
	const sent = await hit(accountKey('email-change-account', userId), env.RATE_LIMIT_STRICT_PER_MINUTE, 60 * 60)
	if (!sent.allowed) throw new DomainError(429, TOO_MANY_ATTEMPTS, 'email', sent.retryAfterSeconds)

	const token = randomBytes(32).toString('base64url')
	const expiresAt = new Date(Date.now() + EMAIL_CHANGE_HOURS * 60 * 60 * 1000)
	const row = { newEmail, tokenHash: hashToken(token), expiresAt, createdAt: new Date() }
	await db
		.insert(emailChanges)
		.values({ userId, ...row })
		.onConflictDoUpdate({ target: emailChanges.userId, set: row })

	const link = new URL(`${EMAIL_CHANGE_PATH}?${new URLSearchParams({ token })}`, env.PUBLIC_URL).toString()
	await sendEmail({
		to: newEmail,
		userId,
		type: 'email-change',
		subject: 'Confirm your new email address',
		text: [
			greeting(current.firstName),
			`You asked to use this address for your Hit Me Helpers account. Open this link within ${EMAIL_CHANGE_HOURS} hours to confirm it:`,
			link,
			'Your account keeps its current address until the link is opened. If you did not ask for this, ignore this message: nothing changes.',
		].join('\n\n'),
	})
	await sendEmail({
		to: current.email,
		userId,
		type: 'email-change-requested',
		subject: 'A change of your email address was requested',
		text: [
			greeting(current.firstName),
			`Someone signed in to your Hit Me Helpers account asked to change its email address to ${newEmail}. We sent a link to that address; your address changes only if the link is opened within ${EMAIL_CHANGE_HOURS} hours.`,
			`If this was not you, cancel the change and sign out everywhere on your Profile page: ${profileUrl()}`,
			`Questions? Write to us at ${env.SUPPORT_EMAIL}.`,
		].join('\n\n'),
	})
	return { email: newEmail, expiresAt }
}

function addressInUse(email: string, exceptUserId: string, executor: Executor = db) {
	return executor
		.select({ id: users.id })
		.from(users)
		.where(and(eq(sql`lower(${users.email})`, email), ne(users.id, exceptUserId)))
		.limit(1)
		.then((rows) => rows.length > 0)
}

/** The change waiting for its link, if any and not expired. */
export async function pendingEmailChange(userId: string) {
	const row = await db.query.emailChanges.findFirst({
		columns: { newEmail: true, expiresAt: true },
		where: and(eq(emailChanges.userId, userId), gt(emailChanges.expiresAt, sql`now()`)),
	})
	return row ? { email: row.newEmail, expiresAt: row.expiresAt } : null
}

/** Withdraws the waiting change: its link stops working. Says whether there was one. */
export async function cancelEmailChange(userId: string) {
	const removed = await db.delete(emailChanges).where(eq(emailChanges.userId, userId)).returning({ userId: emailChanges.userId })
	return removed.length > 0
}

/** What the link is for, to ask before changing anything; null when it is unknown, used or expired. */
export async function findEmailChange(token: string) {
	if (!token) return null
	const row = await db.query.emailChanges.findFirst({
		columns: { userId: true, newEmail: true },
		where: and(eq(emailChanges.tokenHash, hashToken(token)), gt(emailChanges.expiresAt, sql`now()`)),
	})
	return row ? { userId: row.userId, email: row.newEmail } : null
}

export type EmailChangeConfirmation = { userId: string; email: string; previousEmail: string; endedSessions: number }

/**
 * Opens the link: the token is spent whatever happens next. The address becomes the account's (and counts as
 * verified) if no other account took it meanwhile. With `endOtherSessions`, every session of the account ends except
 * `keepSessionId` (the one confirming, when it is the account's own). The previous address is told. Refused: a link
 * unknown, used or expired (404), an address another account took meanwhile (409).
 */
export async function confirmEmailChange(
	token: string,
	options: { endOtherSessions?: boolean; keepSessionId?: string | null } = {},
): Promise<EmailChangeConfirmation> {
	let outcome: EmailChangeConfirmation | DomainError
	try {
		// A refusal is returned from the transaction, not thrown in it: the spent token stays spent.
		outcome = await db.transaction(async (tx) => {
			const [change] = await tx
				.delete(emailChanges)
				.where(and(eq(emailChanges.tokenHash, hashToken(token)), gt(emailChanges.expiresAt, sql`now()`)))
				.returning()
			if (!change) return new DomainError(404, LINK_NOT_VALID)
			const user = await tx.query.users.findFirst({ columns: { email: true }, where: eq(users.id, change.userId) })
			if (!user) return new DomainError(404, LINK_NOT_VALID)
			if (await addressInUse(change.newEmail, change.userId, tx)) return new DomainError(409, ADDRESS_TAKEN_MEANWHILE)
			await tx
				.update(users)
				.set({ email: change.newEmail, emailVerifiedAt: sql`now()` })
				.where(eq(users.id, change.userId))
			let endedSessions = 0
			if (options.endOtherSessions) {
				const keep = options.keepSessionId
				const ended = await tx
					.delete(sessions)
					.where(and(eq(sessions.userId, change.userId), keep ? ne(sessions.id, keep) : undefined))
					.returning({ id: sessions.id })
				endedSessions = ended.length
			}
			return { userId: change.userId, email: change.newEmail, previousEmail: user.email, endedSessions }
		})
	} catch (error) {
		// Another account took the address between the check and the update (the unique index decided).
		if (isUniqueViolation(error)) throw new DomainError(409, ADDRESS_TAKEN_MEANWHILE)
		throw error
	}
	if (outcome instanceof DomainError) throw outcome
	await tellPreviousAddress(outcome.userId, outcome.previousEmail, outcome.email)
	return outcome
}

async function tellPreviousAddress(userId: string, previousEmail: string, email: string) {
	const user = await db.query.users.findFirst({ columns: { firstName: true }, where: eq(users.id, userId) })
	await sendEmail({
		to: previousEmail,
		userId,
		type: 'email-changed',
		subject: 'Your email address was changed',
		text: [
			greeting(user?.firstName ?? null),
			`The email address of your Hit Me Helpers account is now ${email}: the link we sent there was opened. From now on we write to you at that address.`,
			`If you did not make this change, write to us at once at ${env.SUPPORT_EMAIL}.`,
		].join('\n\n'),
	})
}

/** Changes whose link can no longer be opened (housekeeping). */
export async function pruneExpiredEmailChanges() {
	const removed = await db
		.delete(emailChanges)
		.where(lte(emailChanges.expiresAt, sql`now()`))
		.returning({ userId: emailChanges.userId })
	return removed.length
}
