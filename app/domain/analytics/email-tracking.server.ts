import { timingSafeEqual } from 'node:crypto'
import { desc, eq, sql } from 'drizzle-orm'
import { db } from '#db/client.ts'
import { emails } from '#db/schema.ts'
import { clickSignature } from '#app/adapters/email-html.ts'
import { addressMatcher } from '#app/utils/client-address.ts'
import { env } from '#app/utils/env.server.ts'

/** The shape of a message's tracking id in a URL (randomBytes(16) as base64url is 22 characters). */
export const TRACKING_ID = /^[A-Za-z0-9_-]{16,64}$/
const MAX_TARGET = 2048

/** Apple Mail Privacy Protection fetches every image from Apple's own network, 17.0.0.0/8. */
const isAppleNetwork = addressMatcher(['17.0.0.0/8'])

/**
 * Whether an open was fetched by a mail-privacy proxy rather than by a person opening the message: Gmail's and
 * Yahoo's image proxies, and Apple Mail Privacy Protection (which preloads images whether or not anyone reads them).
 */
export function isMachineOpen({ userAgent, address }: { userAgent: string | null; address: string | null }) {
	const agent = userAgent ?? ''
	return agent.includes('GoogleImageProxy') || agent.includes('YahooMailProxy') || agent === 'Mozilla/5.0' || isAppleNetwork(address ?? '')
}

/**
 * Records that the message was opened (its pixel was fetched); an unknown tracking id is ignored. One statement: at most
 * one open of each kind (person, proxy) per message and minute, so a reloaded pixel adds nothing.
 */
export async function recordEmailOpen(trackingId: string, client: { userAgent: string | null; address: string | null }) {
	if (!TRACKING_ID.test(trackingId)) return
	const machine = isMachineOpen(client)
	// Plain column names with aliases: drizzle may print a column unqualified, and `id` then means the inner table's.
	const firstOpen = sql.raw(machine ? 'machine_opened_at' : 'opened_at')
	await db.execute(sql`
		with opened as (
			insert into email_events (email_id, type, machine)
			select e.id, 'open', ${machine} from emails e
			where e.tracking_id = ${trackingId}
				and not exists (
					select 1 from email_events ev
					where ev.email_id = e.id and ev.type = 'open' and ev.machine = ${machine} and ev.created_at > now() - interval '1 minute'
				)
			returning email_id
		)
		update emails set ${firstOpen} = now() where id in (select email_id from opened) and ${firstOpen} is null`)
}

/** The signature is one of ours, under any of the session secrets (a link mailed before a rotation still works). */
function validSignature(trackingId: string, target: string, signature: string) {
	const given = Buffer.from(signature)
	return env.sessionSecrets.some((secret) => {
		const expected = Buffer.from(clickSignature(secret, trackingId, target))
		return expected.length === given.length && timingSafeEqual(expected, given)
	})
}

/**
 * A click on a tracked link: the URL to send the reader to, with `em={trackingId}` so the visit is attributed to the
 * message, or null when the link is not one we signed or leads off the site (never an open redirect). Records the
 * click with the target's path only: a query string may hold something personal.
 */
export async function recordEmailClick(trackingId: string, target: string | null, signature: string | null) {
	if (!TRACKING_ID.test(trackingId) || !target || !signature || target.length > MAX_TARGET) return null
	if (!validSignature(trackingId, target, signature)) return null
	let url: URL
	try {
		url = new URL(target)
	} catch {
		return null
	}
	if (url.origin !== new URL(env.PUBLIC_URL).origin) return null
	// A message deleted since (with its account) still sends the reader on; there is just nothing to record it on.
	await db.execute(sql`
		with clicked as (
			insert into email_events (email_id, type, url)
			select e.id, 'click', ${url.pathname} from emails e where e.tracking_id = ${trackingId}
			returning email_id
		)
		update emails set clicked_at = coalesce(clicked_at, now()), opened_at = coalesce(opened_at, now())
		where id in (select email_id from clicked)`)
	url.searchParams.set('em', trackingId)
	return url.toString()
}

export type EmailMessageStats = {
	totalSent: number
	totalOpened: number
	totalClicked: number
	openRate: number
	clickRate: number
	/** Sent messages opened only by a privacy proxy (Apple, Gmail, Yahoo): maybe read, maybe not; not counted as opened. */
	machineOpens: number
	recentEmails: Array<{ id: number; email: string; emailType: string; sentAt: string; opened: boolean; clicked: boolean }>
}

const percent = (part: number, whole: number) => (whole ? Math.round((part / whole) * 1000) / 10 : 0)

/**
 * The owner's Emails tab: one pass over the sent messages (each carries when it was first opened and clicked), and the
 * newest ones by index, whatever the number of events.
 */
export async function emailMessageStats({ recent = 10 }: { recent?: number } = {}): Promise<EmailMessageStats> {
	const count = (condition?: string) => sql<number>`count(*)${condition ? sql.raw(` filter (where ${condition})`) : sql``}`.mapWith(Number)
	const [[totals], latest] = await Promise.all([
		db
			.select({
				sent: count(),
				opened: count('opened_at is not null'),
				clicked: count('clicked_at is not null'),
				machineOnly: count('machine_opened_at is not null and opened_at is null'),
			})
			.from(emails)
			.where(eq(emails.status, 'sent')),
		db
			.select({
				id: emails.id,
				email: emails.toAddress,
				emailType: emails.emailType,
				sentAt: emails.sentAt,
				createdAt: emails.createdAt,
				openedAt: emails.openedAt,
				clickedAt: emails.clickedAt,
			})
			.from(emails)
			.where(eq(emails.status, 'sent'))
			.orderBy(desc(emails.createdAt), desc(emails.id))
			.limit(Math.max(0, Math.min(recent, 100))),
	])
	const events = { opened: totals?.opened, clicked: totals?.clicked, machineOnly: totals?.machineOnly }
	const sent = { count: totals?.sent }
	const totalSent = sent?.count ?? 0
	const totalOpened = events?.opened ?? 0
	const totalClicked = events?.clicked ?? 0
	return {
		totalSent,
		totalOpened,
		totalClicked,
		openRate: percent(totalOpened, totalSent),
		clickRate: percent(totalClicked, totalSent),
		machineOpens: events?.machineOnly ?? 0,
		recentEmails: latest.map(({ createdAt, sentAt, openedAt, clickedAt, ...row }) => ({
			...row,
			sentAt: (sentAt ?? createdAt).toISOString(),
			opened: openedAt !== null,
			clicked: clickedAt !== null,
		})),
	}
}
