import { randomBytes } from 'node:crypto'
import { and, eq, inArray, lte, sql } from 'drizzle-orm'
import { createTransport } from 'nodemailer'
import { z } from 'zod'
import { db, rowsOf, type Executor } from '#db/client.ts'
import { JOB_SCHEMA } from '#db/job-queues.ts'
import { EMAIL_TYPES, emails } from '#db/schema.ts'
import { env } from '#app/utils/env.server.ts'
import { sealedData } from '#app/utils/sealed-data.server.ts'
import { JOB_QUEUES } from '#app/jobs/queues.ts'
import { enqueueInTransaction, wakeWorkers } from './jobs.server.ts'
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

/** The tries a message gets: the first and the 'send-email' queue's retries, which back off (queues.ts). */
export const MAX_ATTEMPTS = JOB_QUEUES['send-email'].jobs.retryLimit + 1

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
 * Records the message with its 'send-email' job and starts sending it (at once where this process runs workers).
 * Returns the row id. Throws only for invalid input; a failed delivery stays recorded and the job retries it.
 */
export async function sendEmail(input: EmailInput) {
	const id = await db.transaction((tx) => queueEmail(tx, input))
	deliverSoon()
	return id
}

/**
 * Records a message and its 'send-email' job inside the caller's transaction: both exist exactly when the change that
 * caused them does. An instance running workers picks the job up within its polling interval; the caller may call
 * deliverSoon after the commit to start at once.
 */
export async function queueEmail(tx: Executor, input: EmailInput) {
	const [row] = await tx.insert(emails).values(pendingRow(input)).returning({ id: emails.id })
	await enqueueInTransaction(tx, 'send-email', { emailId: row!.id })
	return row!.id
}

/** Starts this process's 'send-email' workers on what was just committed, rather than at their next poll. */
export function deliverSoon() {
	wakeWorkers('send-email')
}

/** A failed delivery as the job keeps and logs it: the server's codes, never its words (they may quote the address). */
export class DeliveryFailed extends Error {
	override name = 'DeliveryFailed'
	constructor(
		readonly code: unknown,
		readonly responseCode: unknown,
	) {
		super('e-mail not delivered')
	}
}

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

/** An attempt holds its message this long, as long as its job may run before it expires and is retried. */
const ATTEMPT_SECONDS = JOB_QUEUES['send-email'].jobs.expireInSeconds

/** Another attempt at the message is under way (a job that expired mid-send, retried): this one waits its turn. */
export class DeliveryBusy extends Error {
	override name = 'DeliveryBusy'
	constructor() {
		super('e-mail being sent by another attempt')
	}
}

/**
 * Takes a pending message for one attempt, counting it, and holds it until the attempt ends (nextAttemptAt): two runs
 * never send one message twice. Undefined once it is sent or failed; DeliveryBusy while another attempt holds it.
 */
async function claim(emailId: number) {
	const [row] = await db
		.update(emails)
		.set({ attempts: sql`${emails.attempts} + 1`, nextAttemptAt: sql`now() + make_interval(secs => ${ATTEMPT_SECONDS})` })
		.where(and(eq(emails.id, emailId), eq(emails.status, 'pending'), lte(emails.nextAttemptAt, sql`now()`)))
		.returning()
	if (row) return row
	if (await db.$count(emails, and(eq(emails.id, emailId), eq(emails.status, 'pending')))) throw new DeliveryBusy()
	return undefined
}

/**
 * The 'send-email' job: one attempt at one message. A failure is recorded on the row and thrown, so the job runner
 * retries it with backoff; after the last retry the message goes to 'email-undeliverable' (markUndeliverable).
 */
export async function deliverEmail(emailId: number, transport: MailTransport = defaultMailTransport()) {
	const row = await claim(emailId)
	if (!row) return 'done' as const
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
		const lastError = (error instanceof Error ? error.message : String(error)).slice(0, 1000)
		// The server's answer may name the recipient: the line keeps the error's codes, the row its message.
		const { code, responseCode } = error as { code?: unknown; responseCode?: unknown }
		log.warn({ emailId: row.id, type: row.emailType, attempts: row.attempts, code, responseCode }, 'e-mail not delivered')
		await db
			.update(emails)
			.set({ lastError, nextAttemptAt: sql`now()` })
			.where(eq(emails.id, row.id))
		throw new DeliveryFailed(code, responseCode)
	}
	await db
		.update(emails)
		.set({ status: 'sent', sentAt: sql`now()` })
		.where(eq(emails.id, row.id))
	return 'sent' as const
}

/** The 'email-undeliverable' job: a message whose every attempt failed is marked failed and kept (the Emails tab). */
export async function markUndeliverable(emailId: number) {
	const [row] = await db
		.update(emails)
		.set({ status: 'failed' })
		.where(and(eq(emails.id, emailId), eq(emails.status, 'pending')))
		.returning({ id: emails.id, type: emails.emailType, attempts: emails.attempts })
	if (row) log.warn({ emailId: row.id, type: row.type, attempts: row.attempts }, 'e-mail failed after its last attempt')
}

/**
 * At start: a pending message without a live 'send-email' job (one recorded before each message carried its job) gets
 * one. Returns how many did; 0 in a database where every message was recorded with its job.
 */
export async function queueUnsentEmails() {
	const jobs = sql.raw(`${JOB_SCHEMA}.job`)
	const unsent = rowsOf<{ id: number }>(
		await db.execute(sql`
			select e.id from ${emails} e where e.status = 'pending' and not exists (
				select 1 from ${jobs} j
				where j.name = 'send-email' and j.state in ('created', 'retry', 'active') and (j.data->>'emailId')::int = e.id
			)`),
	)
	for (const { id } of unsent) await db.transaction((tx) => enqueueInTransaction(tx, 'send-email', { emailId: id }))
	if (unsent.length) deliverSoon()
	return unsent.length
}
