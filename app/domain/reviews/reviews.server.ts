import { createHash, randomBytes } from 'node:crypto'
import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm'
import { db, instant, type Executor } from '#db/client.ts'
import { columnsOf } from '#db/queries.ts'
import { allergies, emergencyContacts, medicalConditions, medicalProfiles, medications, qrCodes, reviewLinks } from '#db/schema.ts'
import { deliverSoon, queueEmail, type EmailInput } from '#app/adapters/mail.server.ts'
import { auditChange } from '#app/domain/profiles/audit.server.ts'
import { confirmProfile } from '#app/domain/profiles/profiles.server.ts'
import { ownedProfile } from '#app/domain/profiles/access.server.ts'
import { hasRecordedCare, responderSummaryLines } from '#app/domain/responder/summary.ts'
import { env } from '#app/utils/env.server.ts'
import { intervalLabel, REVIEW_LINK_DAYS, reviewStatus } from './schedule.ts'

/** A code linked to a profile with nothing recorded in it: the gentle nudge comes this long after it was last saved. */
const EMPTY_NUDGE_DELAY = sql`interval '2 days'`
/** Reminders one run of the job sends at most; the next run (hourly) takes the rest. */
const MAX_PER_RUN = 1000

const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url')
const TOKEN = /^[A-Za-z0-9_-]{43}$/

const p = medicalProfiles
const confirmedOn = sql`coalesce(${p.confirmedAt}, ${p.createdAt})`
const dueAt = sql`${confirmedOn} + make_interval(months => ${p.reviewIntervalMonths})`
const nothingRecorded = sql.join(
	[allergies, medications, medicalConditions, emergencyContacts].map(
		(table) => sql`not exists (select 1 from ${table} where ${table.medicalProfileId} = ${p.id})`,
	),
	sql` and `,
)

/**
 * A profile is due a reminder once its review interval has passed since it was last confirmed (one reminder per due
 * date), or, when an active code shows it and nothing is recorded in it, two days after it was last saved (at most
 * once an interval).
 */
function dueForReminder(now: Date) {
	return sql`(
		(${dueAt} <= ${instant(now)} and (${p.reviewRemindedAt} is null or ${p.reviewRemindedAt} < ${dueAt}))
		or (
			${confirmedOn} + ${EMPTY_NUDGE_DELAY} <= ${instant(now)}
			and (${p.reviewRemindedAt} is null or ${p.reviewRemindedAt} < ${instant(now)} - make_interval(months => ${p.reviewIntervalMonths}))
			and exists (select 1 from ${qrCodes} where ${qrCodes.medicalProfileId} = ${p.id} and ${qrCodes.isActive})
			and ${nothingRecorded}
		)
	)`
}

/**
 * The 'review-reminders' job: e-mails each owner whose profile is due, with what the responder page shows, a signed
 * single-use "Still correct" link and an "Update" link. Safe on any number of instances: each profile's reminder is
 * claimed by a conditional update, in the transaction that records the message.
 */
export async function sendDueReviewReminders(now = new Date()) {
	let sent = 0
	let after = 0
	while (sent < MAX_PER_RUN) {
		const due = await db
			.select({ id: p.id })
			.from(p)
			.where(and(gt(p.id, after), dueForReminder(now)))
			.orderBy(asc(p.id))
			.limit(100)
		for (const { id } of due) if (await remindOne(id, now)) sent++
		if (due.length < 100) break
		after = due.at(-1)!.id
	}
	if (sent) deliverSoon()
	return sent
}

async function remindOne(profileId: number, now: Date) {
	return db.transaction(async (tx) => {
		const [claimed] = await tx
			.update(p)
			.set({ reviewRemindedAt: now, updatedAt: sql`${p.updatedAt}` })
			.where(and(eq(p.id, profileId), dueForReminder(now)))
			.returning({ id: p.id })
		if (!claimed) return false
		const profile = await tx.query.medicalProfiles.findFirst({
			where: eq(p.id, profileId),
			with: {
				user: { columns: { email: true } },
				allergies: { orderBy: asc(allergies.id) },
				medications: { orderBy: asc(medications.id) },
				medicalConditions: { orderBy: asc(medicalConditions.id) },
				emergencyContacts: { orderBy: asc(emergencyContacts.id) },
			},
		})
		if (!profile?.user) return false
		const token = await createReviewLink(tx, profileId, now)
		await queueEmail(tx, reviewReminderEmail({ ...profile, email: profile.user.email }, token, now))
		return true
	})
}

async function createReviewLink(tx: Executor, profileId: number, now: Date) {
	const token = randomBytes(32).toString('base64url')
	const expiresAt = new Date(now.getTime() + REVIEW_LINK_DAYS * 86_400_000)
	await tx.insert(reviewLinks).values({ medicalProfileId: profileId, tokenHash: hashToken(token), expiresAt })
	return token
}

type ReminderProfile = Parameters<typeof responderSummaryLines>[0] & {
	id: number
	userId: string
	email: string
	confirmedAt: Date | null
	createdAt: Date
	reviewIntervalMonths: number
}

const longDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'America/New_York' })

export function reviewReminderEmail(profile: ReminderProfile, token: string, now = new Date()): EmailInput {
	const name = profile.fullName ?? 'your profile'
	const { confirmedOn } = reviewStatus(profile, now)
	const confirmLink = new URL(`/review/${token}`, env.PUBLIC_URL).toString()
	const updateLink = new URL(`/medical-info?profile=${profile.id}`, env.PUBLIC_URL).toString()
	const recorded = hasRecordedCare(profile)
	const opening = recorded
		? `${name}'s emergency information was last confirmed on ${longDate.format(confirmedOn)}. This is what a responder sees first when they scan ${name}'s code:`
		: `A code shows ${name}'s profile, but no allergies, medications, medical conditions or emergency contacts are recorded in it yet. This is all a responder would see first:`
	const still = recorded
		? 'If all of this is still correct, confirm it with one click (no sign-in needed):'
		: `If ${name} truly has none of these, confirm it with one click (no sign-in needed):`
	return {
		to: profile.email,
		userId: profile.userId,
		type: 'review-reminder',
		subject: recorded ? `Is ${name}'s emergency information still correct?` : `Add what responders should know about ${name}`,
		text: [
			'Hello,',
			opening,
			responderSummaryLines(profile).join('\n'),
			`${still}\n${confirmLink}\n(The link works once, for ${REVIEW_LINK_DAYS} days.)`,
			`${recorded ? 'If something has changed, update it here:' : 'Add it here:'}\n${updateLink}`,
			`We ask ${intervalLabel(profile.reviewIntervalMonths)}; you can change that on the same page.`,
			'Hit Me Helpers',
		].join('\n\n'),
	}
}

export type ReviewLinkState =
	| { state: 'valid'; profileName: string | null; confirmedOn: Date; expiresAt: Date }
	| { state: 'confirmed'; profileName: string | null; confirmedOn: Date }
	| { state: 'used' | 'expired'; profileName: string | null }
	| { state: 'unknown' }

async function findLink(token: string) {
	if (!TOKEN.test(token)) return null
	const [row] = await db
		.select({
			usedAt: reviewLinks.usedAt,
			expiresAt: reviewLinks.expiresAt,
			profileName: p.fullName,
			confirmedAt: p.confirmedAt,
			createdAt: p.createdAt,
		})
		.from(reviewLinks)
		.innerJoin(p, eq(p.id, reviewLinks.medicalProfileId))
		.where(eq(reviewLinks.tokenHash, hashToken(token)))
	return row ?? null
}

/** What a "Still correct" link can do now: nothing about the profile beyond its name and dates. */
export async function reviewLinkState(token: string, now = new Date()): Promise<ReviewLinkState> {
	const link = await findLink(token)
	if (!link) return { state: 'unknown' }
	if (link.usedAt) return { state: 'used', profileName: link.profileName }
	if (link.expiresAt <= now) return { state: 'expired', profileName: link.profileName }
	return { state: 'valid', profileName: link.profileName, confirmedOn: link.confirmedAt ?? link.createdAt, expiresAt: link.expiresAt }
}

/**
 * The owner confirms through the reminder's link, without signing in: the link is spent (once, before it expires,
 * whatever the number of clicks at once), the profile confirmed as current, and the access record says so.
 */
export async function confirmWithReviewLink(token: string, now = new Date()): Promise<ReviewLinkState> {
	if (!TOKEN.test(token)) return { state: 'unknown' }
	const confirmed = await db.transaction(async (tx) => {
		const [link] = await tx
			.update(reviewLinks)
			.set({ usedAt: now })
			.where(and(eq(reviewLinks.tokenHash, hashToken(token)), isNull(reviewLinks.usedAt), gt(reviewLinks.expiresAt, now)))
			.returning({ profileId: reviewLinks.medicalProfileId })
		if (!link) return null
		const [profile] = await tx
			.update(p)
			.set({ confirmedAt: now })
			.where(eq(p.id, link.profileId))
			.returning({ userId: p.userId, fullName: p.fullName })
		await auditChange(tx, {
			profileId: link.profileId,
			ownerUserId: profile!.userId,
			action: 'review-confirmed',
			fields: [],
			detail: 'reminder link',
		})
		return { state: 'confirmed' as const, profileName: profile!.fullName, confirmedOn: now }
	})
	return confirmed ?? reviewLinkState(token, now)
}

/** The dashboard's "Still correct": the signed-in owner confirms a profile as current without changing it. */
export async function confirmStillCorrect(userId: string, profileId: number) {
	await db.transaction(async (tx) => {
		await ownedProfile(userId, profileId, tx)
		await confirmProfile(tx, profileId)
		await auditChange(tx, { profileId, ownerUserId: userId, action: 'review-confirmed', fields: [], detail: 'dashboard' })
	})
}

/** The person's profiles whose review is due: the dashboard's banner. */
export async function dueReviews(userId: string, now = new Date()) {
	const rows = await db
		.select(columnsOf(p, 'id', 'fullName', 'confirmedAt', 'createdAt', 'reviewIntervalMonths'))
		.from(p)
		.where(eq(p.userId, userId))
		.orderBy(asc(p.id))
	return rows
		.map((row) => ({ id: row.id, fullName: row.fullName, ...reviewStatus(row, now) }))
		.filter((row) => row.due)
		.map(({ id, fullName, confirmedOn }) => ({ id, fullName, confirmedOn }))
}
