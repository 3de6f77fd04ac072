import { randomBytes } from 'node:crypto'
import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm'
import { createTransport } from 'nodemailer'
import { z } from 'zod'
import { db, type Executor } from '#db/client.ts'
import { EMAIL_TYPES, emails } from '#db/schema.ts'
import { env } from '#app/utils/env.server.ts'
import { sealedData } from '#app/utils/sealed-data.server.ts'
import { enqueue } from './jobs.server.ts'
import { trackedHtml, UNTRACKED_CLICK_TYPES } from './email-html.ts'
import { log } from '#app/utils/log.server.ts'

/** One message to send; `id` is its row in `emails`, the one thing about it a log line names. */
export type OutgoingMail = { id: number; type: string; from: string; to: string; subject: string; text: string; html?: string }

/** Delivers one message or throws; the caller records the outcome. */
export type MailTransport = { send(mail: OutgoingMail): Promise<void> }

const EmailSchema = z.object({
	to: z.email().max(254),
	type: z.enum(EMAIL_TYPES, { error: 'must be one of the kinds of message the app sends (EMAIL_TYPES)' }),
	subject: z
		.string()
		.trim()
		.min(1)
		.max(200)
		.regex(/^[^\r\n]*$/, 'must be one line'),
	text: z.string().min(1),
	html: z.string().min(1).optional(),
	userId: z.string().min(1).optional(),
})

export type EmailInput = z.input<typeof EmailSchema>
type EmailRow = typeof emails.$inferSelect

/** Waits after the 1st, 2nd, … failed attempt; one more failure after the last one marks the row failed. */
const RETRY_DELAYS_SECONDS = [60, 5 * 60, 30 * 60, 2 * 60 * 60, 12 * 60 * 60]
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1
/** A claimed row is hidden from other workers this long; if this one dies mid-send, the row comes back. */
const CLAIM_SECONDS = 10 * 60

const secondsFromNow = (seconds: number) => sql`now() + make_interval(secs => ${seconds})`

export function createSmtpTransport(url: string): MailTransport {
	// Bounded waits: sendEmail runs inside requests, and a claim must outlast one send.
	const transporter = createTransport({ url, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 })
	return {
		async send(mail) {
			await transporter.sendMail(mail)
		},
	}
}

/**
 * The embedded default: the row in `emails` is the outbox (the owner's Emails tab shows it). The log names the message
 * by id only; local development (npm run dev) also prints it whole, to follow a link in it.
 */
export const outboxTransport: MailTransport = {
	async send({ id, type, to, subject, text }) {
		if (env.NODE_ENV === 'development') log.info({ emailId: id, type }, `outbox: to ${to}, subject ${subject}\n${text}`)
		else log.info({ emailId: id, type }, 'e-mail kept in the outbox (no SMTP_URL)')
	},
}

let cachedTransport: MailTransport | undefined

/** SMTP when SMTP_URL is set, else the outbox; made once per process. */
export function defaultMailTransport() {
	cachedTransport ??= env.SMTP_URL ? createSmtpTransport(env.SMTP_URL) : outboxTransport
	return cachedTransport
}

function parseEmail(input: EmailInput) {
	const parsed = EmailSchema.safeParse(input)
	if (parsed.success) return parsed.data
	const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')
	throw new Error(`Invalid e-mail message: ${problems}`)
}

/** The recipient's keyed hash, kept beside the sealed address: how a person's messages are found. */
export const mailAddressHash = (address: string) => sealedData.lookupHash(address.trim().toLowerCase(), 'email-address')

/** The messages to this address (any case), hashed under any key in DATA_ENCRYPTION_KEYS. */
export const messagesTo = (address: string) =>
	inArray(emails.toAddressHash, sealedData.lookupHashes(address.trim().toLowerCase(), 'email-address'))

/** A pending row for a checked message. */
function pendingRow(input: EmailInput) {
	const { to, type, subject, text, html, userId } = parseEmail(input)
	return {
		userId,
		toAddress: to,
		toAddressHash: mailAddressHash(to),
		emailType: type,
		subject,
		textBody: text,
		htmlBody: html,
		status: 'pending' as const,
		trackingId: randomBytes(16).toString('base64url'),
	}
}

/**
 * Records the message and asks the 'deliver-email' job to send it (at once where this process runs workers). Returns
 * the row id. Throws only for invalid input; a failed delivery stays recorded and is retried on its schedule.
 */
export async function sendEmail(input: EmailInput) {
	const [row] = await db.insert(emails).values(pendingRow(input)).returning({ id: emails.id })
	await deliverSoon()
	return row!.id
}

/**
 * Records a message inside the caller's transaction, due at once: it exists exactly when the change that caused it
 * does. The caller calls deliverSoon after the commit; if it cannot, the job's next clock tick sends it.
 */
export async function queueEmail(tx: Executor, input: EmailInput) {
	const [row] = await tx.insert(emails).values(pendingRow(input)).returning({ id: emails.id })
	return row!.id
}

/** Wakes the delivery job. Never throws: the message is recorded, and the job runs every minute anyway. */
export async function deliverSoon() {
	await enqueue('deliver-email', {}).catch((error: unknown) => log.warn({ err: error }, 'e-mail delivery job not queued'))
}

type Outcome = 'sent' | 'deferred' | 'failed'

/** A plain-text message also goes out as simple HTML, with an open pixel and (unless its links carry secrets) click tracking. */
function htmlPart(row: EmailRow) {
	return trackedHtml({
		text: row.textBody,
		subject: row.subject,
		trackingId: row.trackingId,
		publicUrl: env.PUBLIC_URL,
		trackClicks: !UNTRACKED_CLICK_TYPES.has(row.emailType),
		secret: env.sessionSecrets[0]!,
	})
}

async function attemptDelivery(row: EmailRow, transport: MailTransport): Promise<Outcome> {
	const attempts = row.attempts + 1
	try {
		await transport.send({
			id: row.id,
			type: row.emailType,
			from: env.MAIL_FROM,
			to: row.toAddress,
			subject: row.subject,
			text: row.textBody,
			html: row.htmlBody ?? htmlPart(row),
		})
	} catch (error) {
		return recordFailure(row, attempts, error)
	}
	await db
		.update(emails)
		.set({ status: 'sent', attempts, sentAt: sql`now()` })
		.where(eq(emails.id, row.id))
	return 'sent'
}

async function recordFailure(row: EmailRow, attempts: number, error: unknown): Promise<Outcome> {
	const lastError = (error instanceof Error ? error.message : String(error)).slice(0, 1000)
	const delay = RETRY_DELAYS_SECONDS[attempts - 1]
	const outcome = delay === undefined ? 'failed' : 'deferred'
	// The server's answer may name the recipient: the line keeps the error's codes, the row its message.
	const { code, responseCode } = error as { code?: unknown; responseCode?: unknown }
	log.warn({ emailId: row.id, type: row.emailType, attempts, outcome, code, responseCode }, 'e-mail not delivered')
	await db
		.update(emails)
		.set({ attempts, lastError, ...(delay === undefined ? { status: 'failed' } : { nextAttemptAt: secondsFromNow(delay) }) })
		.where(eq(emails.id, row.id))
	return outcome
}

/** Takes the oldest due row for this instance alone (two instances never get the same one), or undefined. */
async function claimNextDue() {
	const due = db
		.select({ id: emails.id })
		.from(emails)
		.where(and(eq(emails.status, 'pending'), lte(emails.nextAttemptAt, sql`now()`)))
		.orderBy(asc(emails.nextAttemptAt))
		.limit(1)
		.for('update', { skipLocked: true })
	const [row] = await db
		.update(emails)
		.set({ nextAttemptAt: secondsFromNow(CLAIM_SECONDS) })
		// `= (subquery)` runs it once; `IN (subquery)` may rescan it per row and claim more than one.
		.where(and(sql`${emails.id} = (${due})`, eq(emails.status, 'pending'), lte(emails.nextAttemptAt, sql`now()`)))
		.returning()
	return row
}

/** Sends pending messages whose time has come (new ones and retries), one claimed row at a time: the 'deliver-email' job. */
export async function deliverPendingEmails(limit = 20, transport: MailTransport = defaultMailTransport()) {
	const counts: Record<Outcome, number> = { sent: 0, deferred: 0, failed: 0 }
	for (let i = 0; i < limit; i++) {
		const row = await claimNextDue()
		if (!row) break
		counts[await attemptDelivery(row, transport)]++
	}
	return counts
}
