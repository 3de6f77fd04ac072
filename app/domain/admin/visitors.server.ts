import { createHmac, timingSafeEqual } from 'node:crypto'
import { and, desc, eq, exists, gte, isNull, not, or, sql } from 'drizzle-orm'
import { db } from '#db/client.ts'
import { emails, sessions, users, visits } from '#db/schema.ts'
import { deliverSoon, queueEmail } from '#app/adapters/mail.server.ts'
import { DomainError } from '#app/utils/errors.ts'
import { env } from '#app/utils/env.server.ts'
import { timeRangeStart, type TimeRange } from './time-range.ts'

export const VISITOR_NOTICE_EMAIL_TYPE = 'visitor-notice'
export const DEFAULT_NOTICE_SUBJECT = 'Keep your emergency information current'
/** At most this many notices per call; those left over are reached by the next call (the ones notified are skipped). */
export const MAX_NOTICES_PER_CALL = 500
/** A person gets at most one notice in this many hours, however often the owner presses the button. */
export const NOTICE_INTERVAL_HOURS = 24
const MAX_SUBJECT = 200
const MAX_TEXT = 5000
const MAX_TOKEN = 512

export type RecentVisitor = { id: string; email: string; name: string | null }
export type NoticeMessage = { subject?: string; text?: string }

/**
 * Who counts as a recent visitor: a signed-in person active since `start` (a session of theirs began then, or a
 * visit of theirs was recorded), who has not opted out of notices, and is not the owner.
 */
function recentVisitorWhere(start: Date) {
	return and(
		isNull(users.noticesOptedOutAt),
		env.OWNER_EMAIL ? sql`lower(${users.email}) <> ${env.OWNER_EMAIL}` : undefined,
		or(
			exists(
				db
					.select({ one: sql`1` })
					.from(sessions)
					.where(and(eq(sessions.userId, users.id), gte(sessions.createdAt, start))),
			),
			exists(
				db
					.select({ one: sql`1` })
					.from(visits)
					.where(and(eq(visits.userId, users.id), gte(visits.visitedAt, start))),
			),
		),
	)
}

const nameOf = (person: { firstName: string | null; lastName: string | null }) =>
	[person.firstName, person.lastName].filter(Boolean).join(' ').trim() || null

/** The recent visitors of the range (see recentVisitorWhere), newest accounts first, at most `limit` (1 to 500). */
export async function recentVisitors(
	range: TimeRange,
	{ limit = MAX_NOTICES_PER_CALL, now = new Date() }: { limit?: number; now?: Date } = {},
): Promise<RecentVisitor[]> {
	const rows = await db
		.select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName })
		.from(users)
		.where(recentVisitorWhere(timeRangeStart(range, now)))
		.orderBy(desc(users.createdAt), desc(users.id))
		.limit(Number.isInteger(limit) ? Math.min(Math.max(limit, 1), MAX_NOTICES_PER_CALL) : MAX_NOTICES_PER_CALL)
	return rows.map((row) => ({ id: row.id, email: row.email, name: nameOf(row) }))
}

function checkedMessage(message: NoticeMessage) {
	const subject = message.subject?.trim() || DEFAULT_NOTICE_SUBJECT
	if (subject.length > MAX_SUBJECT || /[\r\n]/.test(subject))
		throw new DomainError(400, `The subject must be one line of at most ${MAX_SUBJECT} characters.`, 'subject')
	const text = message.text?.trim() || null
	if (text && text.length > MAX_TEXT) throw new DomainError(400, `The message must be at most ${MAX_TEXT} characters.`, 'text')
	return { subject, text }
}

/**
 * "Notify Recent Visitors" (spec 002 §2 header, §7 POST /api/notify-visitors → successCount, totalUsers): one notice
 * from the foundation to each recent visitor of the range who has had none in the last 24 hours, at most 500 per call,
 * all queued in one transaction and delivered in the background after it commits. totalUsers: the recent visitors
 * found; successCount: the notices queued. Simultaneous calls take turns, so nobody gets two.
 */
export async function notifyRecentVisitors(
	range: TimeRange,
	message: NoticeMessage = {},
	{ now = new Date() }: { now?: Date } = {},
): Promise<{ successCount: number; totalUsers: number }> {
	const { subject, text } = checkedMessage(message)
	const where = recentVisitorWhere(timeRangeStart(range, now))
	const result = await db.transaction(async (tx) => {
		await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${VISITOR_NOTICE_EMAIL_TYPE}))`)
		const [found] = await tx
			.select({ count: sql<number>`count(*)::int` })
			.from(users)
			.where(where)
		const recipients = await tx
			.select({ id: users.id, email: users.email, firstName: users.firstName })
			.from(users)
			.where(
				and(
					where,
					not(
						exists(
							tx
								.select({ one: sql`1` })
								.from(emails)
								.where(
									and(
										eq(emails.userId, users.id),
										eq(emails.emailType, VISITOR_NOTICE_EMAIL_TYPE),
										sql`${emails.createdAt} > now() - make_interval(hours => ${NOTICE_INTERVAL_HOURS})`,
									),
								),
						),
					),
				),
			)
			.orderBy(desc(users.createdAt), desc(users.id))
			.limit(MAX_NOTICES_PER_CALL)
		for (const person of recipients)
			await queueEmail(tx, {
				to: person.email,
				type: VISITOR_NOTICE_EMAIL_TYPE,
				subject,
				text: noticeText(person, text),
				userId: person.id,
			})
		return { successCount: recipients.length, totalUsers: found?.count ?? 0 }
	})
	if (result.successCount > 0) deliverSoon()
	return result
}

/** A short reminder: what to check and where, never anything of their medical information itself. */
function noticeText(person: { id: string; firstName: string | null }, custom: string | null) {
	const dashboard = new URL('/dashboard', env.PUBLIC_URL).toString()
	const body = custom
		? [custom, `Your dashboard: ${dashboard}`]
		: [
				`Hello ${person.firstName?.trim() || 'there'},`,
				'This is a short reminder from the Hit Me Helpers Foundation. In an emergency, responders who scan your QR code see the information you keep with us, so please take a minute to check that it is still current:',
				[
					'- your medical information (conditions and allergies)',
					'- your DNR/POLST status, and where the original document is kept',
					'- your medications',
					'- your emergency contacts',
				].join('\n'),
				`Review it in your dashboard: ${dashboard}`,
				'Thank you for keeping it up to date.\nHit Me Helpers Foundation',
			]
	return [...body, `You receive this notice because you use Hit Me Helpers. To stop these notices: ${noticeOptOutUrl(person.id)}`].join(
		'\n\n',
	)
}

function mac(secret: string, userId: string) {
	return createHmac('sha256', secret).update(`notice-opt-out:${userId}`).digest('base64url')
}

/** `{userId}.{HMAC}`, signed with the first SESSION_SECRET; any of them verifies, so rotating secrets keeps old links working. */
export function noticeOptOutToken(userId: string) {
	return `${userId}.${mac(env.sessionSecrets[0]!, userId)}`
}

export function noticeOptOutUrl(userId: string) {
	const url = new URL('/notices/opt-out', env.PUBLIC_URL)
	url.searchParams.set('token', noticeOptOutToken(userId))
	return url.toString()
}

/** The person the token was made for, or null for anything forged, cut or malformed. Constant-time comparison. */
function verifyOptOutToken(token: unknown) {
	if (typeof token !== 'string' || token.length > MAX_TOKEN) return null
	const dot = token.lastIndexOf('.')
	if (dot < 1) return null
	const userId = token.slice(0, dot)
	const given = Buffer.from(token.slice(dot + 1))
	const valid = env.sessionSecrets.some((secret) => {
		const expected = Buffer.from(mac(secret, userId))
		return expected.length === given.length && timingSafeEqual(expected, given)
	})
	return valid ? userId : null
}

/** The opt-out link: true once the person is opted out (again: the first date is kept); false for a bad token or unknown person. */
export async function optOutOfNotices(token: string): Promise<boolean> {
	const userId = verifyOptOutToken(token)
	if (!userId) return false
	const updated = await db
		.update(users)
		.set({ noticesOptedOutAt: sql`coalesce(${users.noticesOptedOutAt}, now())` })
		.where(eq(users.id, userId))
		.returning({ id: users.id })
	return updated.length > 0
}
