import { createServer, type AddressInfo } from 'node:net'
import { eq, sql } from 'drizzle-orm'
import { SMTPServer } from 'smtp-server'
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import { db, rowsOf } from '#db/client.ts'
import { emails } from '#db/schema.ts'
import { env } from '#app/utils/env.server.ts'
import { log, loggedError } from '#app/utils/log.server.ts'
import { createUser, uniqueEmail } from '#tests/factories.ts'
import {
	createSmtpTransport,
	defaultMailTransport,
	deliverEmail,
	DeliveryBusy,
	DeliveryFailed,
	markUndeliverable,
	MAX_ATTEMPTS,
	messagesTo,
	outboxTransport,
	queueEmail,
	queueUnsentEmails,
	sendEmail,
} from './mail.server.ts'

type Received = { envelopeTo: string[]; user: unknown; headers: Record<string, string>; body: string }

/** Headers (unfolded, lower-case names) and the raw body; enough for plain ASCII test messages. */
function parseMessage(raw: string) {
	const split = raw.indexOf('\r\n\r\n')
	const lines = raw
		.slice(0, split)
		.replace(/\r\n[ \t]+/g, ' ')
		.split('\r\n')
	const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]))
	return { headers, body: raw.slice(split + 4) }
}

async function startSmtpServer(port = 0) {
	const received: Received[] = []
	const server = new SMTPServer({
		secure: false,
		disabledCommands: ['STARTTLS'],
		authOptional: true,
		allowInsecureAuth: true,
		logger: false,
		onAuth(auth, _session, callback) {
			if (auth.username === 'mailer' && auth.password === 's3cret') callback(null, { user: auth.username })
			else callback(new Error('Invalid username or password'))
		},
		onData(stream, session, callback) {
			const chunks: Buffer[] = []
			stream.on('data', (chunk: Buffer) => chunks.push(chunk))
			stream.on('end', () => {
				const envelopeTo = session.envelope.rcptTo.map((r) => r.address)
				received.push({ envelopeTo, user: session.user, ...parseMessage(Buffer.concat(chunks).toString('utf8')) })
				callback()
			})
		},
	})
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject)
		server.listen(port, '127.0.0.1', () => resolve())
	})
	return {
		received,
		port: (server.server.address() as AddressInfo).port,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	}
}

/** A loopback port with nothing listening: an SMTP server that is down. */
async function unusedPort() {
	const probe = createServer()
	await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
	const { port } = probe.address() as AddressInfo
	await new Promise((resolve) => probe.close(resolve))
	return port
}

const rowOf = async (id: number) => (await db.select().from(emails).where(eq(emails.id, id)))[0]!
/** The 'send-email' jobs carrying a message, as pg-boss keeps them. */
const jobsOf = async (emailId: number) =>
	rowsOf<{ state: string; retry_limit: number; retry_delay: number; retry_backoff: boolean; dead_letter: string }>(
		await db.execute(
			sql`select state, retry_limit, retry_delay, retry_backoff, dead_letter from pgboss.job where name = 'send-email' and (data->>'emailId')::int = ${emailId}`,
		),
	)
const subjectOf = (label: string) => `${label} ${Math.random().toString(36).slice(2, 10)}`

function message(overrides: Partial<Parameters<typeof sendEmail>[0]> = {}): Parameters<typeof sendEmail>[0] {
	return {
		to: uniqueEmail('mail'),
		type: 'order-confirmation',
		subject: subjectOf('Welcome'),
		text: 'Hello there.\nSee you soon.',
		...overrides,
	}
}

afterEach(() => {
	vi.restoreAllMocks()
})

describe('through SMTP', () => {
	let smtp: Awaited<ReturnType<typeof startSmtpServer>>
	beforeAll(async () => {
		smtp = await startSmtpServer()
	})
	afterAll(() => smtp.close())

	test('a message arrives with its recipient, subject and body, and its row is sent', async () => {
		const user = await createUser()
		const transport = createSmtpTransport(`smtp://mailer:s3cret@127.0.0.1:${smtp.port}`)
		const input = message({ userId: user.id })
		const id = await sendEmail(input)
		expect(await rowOf(id)).toMatchObject({ status: 'pending', attempts: 0 })
		await deliverEmail(id, transport)

		const arrived = smtp.received.filter((m) => m.headers.subject === input.subject)
		expect(arrived).toHaveLength(1)
		expect(arrived[0]!.envelopeTo).toEqual([input.to])
		expect(arrived[0]!.user).toBe('mailer')
		expect(arrived[0]!.headers.to).toBe(input.to)
		expect(arrived[0]!.headers.from).toContain('no-reply@hitmehelpers.org')
		expect(arrived[0]!.body).toContain('Hello there.\r\nSee you soon.')

		const row = await rowOf(id)
		expect(row).toMatchObject({
			status: 'sent',
			attempts: 1,
			toAddress: input.to,
			emailType: 'order-confirmation',
			userId: user.id,
			lastError: null,
		})
		expect(row.sentAt).toBeInstanceOf(Date)
		expect(row.trackingId).toMatch(/^[A-Za-z0-9_-]{22}$/)
	})

	test('an HTML message carries the same text as a plain part beside the HTML', async () => {
		const transport = createSmtpTransport(`smtp://127.0.0.1:${smtp.port}`)
		const input = message({ text: 'Your order shipped.', html: '<p>Your order <b>shipped</b>.</p>' })
		const id = await sendEmail(input)
		await deliverEmail(id, transport)

		const arrived = smtp.received.find((m) => m.headers.subject === input.subject)!
		expect(arrived.headers['content-type']).toMatch(/^multipart\/alternative/)
		expect(arrived.body).toMatch(/Content-Type: text\/plain[^]*Your order shipped\./)
		expect(arrived.body).toMatch(/Content-Type: text\/html[^]*<p>Your order <b>shipped<\/b>\.<\/p>/)
		expect(await rowOf(id)).toMatchObject({ status: 'sent', htmlBody: input.html })
	})
})

describe('the outbox default', () => {
	test('marks the message sent and logs it by id, never its recipient or subject', async () => {
		const info = vi.spyOn(log, 'info').mockImplementation(() => {})
		const input = message({ subject: subjectOf('Reset your password'), type: 'email-changed' })
		const id = await sendEmail(input)
		await deliverEmail(id, outboxTransport)

		const calls = info.mock.calls.filter(([fields]) => (fields as { emailId?: number }).emailId === id)
		expect(calls).toEqual([[{ emailId: id, type: 'email-changed' }, 'e-mail kept in the outbox (no SMTP_URL)']])
		expect(JSON.stringify(info.mock.calls)).not.toContain(input.to)
		const row = await rowOf(id)
		expect(row).toMatchObject({ status: 'sent', attempts: 1, emailType: 'email-changed', textBody: input.text })
		expect(row.sentAt).toBeInstanceOf(Date)
	})

	test.skipIf(env.SMTP_URL)('is what sendEmail uses without SMTP_URL', () => {
		expect(defaultMailTransport()).toBe(outboxTransport)
	})
})

describe('at rest', () => {
	test('the recipient and the subject are sealed like the bodies; a keyed hash finds the messages to an address', async () => {
		const input = message({ subject: subjectOf('Someone is helping Ana now') })
		const id = await sendEmail(input)
		const [stored] = rowsOf<{ to_address: string; subject: string; to_address_hash: string }>(
			await db.execute(sql`select to_address, subject, to_address_hash from emails where id = ${id}`),
		)
		expect(stored!.to_address).not.toContain(input.to.split('@')[0])
		expect(stored!.subject).not.toContain('Ana')
		expect(stored!.to_address_hash).not.toContain(input.to.split('@')[0])
		const found = await db.select().from(emails).where(messagesTo(input.to.toUpperCase()))
		expect(found.map((row) => [row.id, row.toAddress, row.subject])).toEqual([[id, input.to, input.subject]])
	})
})

describe('invalid input', () => {
	test.each([
		['a malformed address', { to: 'not-an-address' }, /Invalid e-mail message: to:/],
		['a two-line subject', { subject: 'Hello\r\nBcc: someone@example.com' }, /subject: must be one line/],
		['an unknown kind of type', { type: 'Password Reset' as never }, /type: must be one of the kinds of message the app sends/],
	])('%s throws before anything is recorded', async (_name, overrides, error) => {
		const input = message(overrides)
		await expect(sendEmail(input)).rejects.toThrow(error)
		expect(await db.select().from(emails).where(messagesTo(input.to))).toHaveLength(0)
	})
})

describe('its job', () => {
	test('is written with the message, with the retries and backoff of its queue, and rolled back with it', async () => {
		const id = await sendEmail(message())
		expect(await jobsOf(id)).toEqual([
			{ state: 'created', retry_limit: MAX_ATTEMPTS - 1, retry_delay: 60, retry_backoff: true, dead_letter: 'email-undeliverable' },
		])

		const input = message()
		let queued = 0
		await expect(
			db.transaction(async (tx) => {
				queued = await queueEmail(tx, input)
				throw new Error('the change that caused the message failed')
			}),
		).rejects.toThrow('failed')
		expect(await db.select().from(emails).where(messagesTo(input.to))).toHaveLength(0)
		expect(await jobsOf(queued)).toHaveLength(0)
	})

	test('a message recorded without one gets one at start, and only one', async () => {
		const id = await sendEmail(message())
		await db.execute(sql`delete from pgboss.job where name = 'send-email' and (data->>'emailId')::int = ${id}`)
		expect(await queueUnsentEmails()).toBeGreaterThanOrEqual(1)
		expect(await jobsOf(id)).toHaveLength(1)
		await queueUnsentEmails()
		expect(await jobsOf(id)).toHaveLength(1)
	})
})

describe('when delivery fails', () => {
	test('the attempt is recorded and thrown for the job to retry; once the server is back it is delivered exactly once', async () => {
		const warn = vi.spyOn(log, 'warn').mockImplementation(() => {})
		const port = await unusedPort()
		const transport = createSmtpTransport(`smtp://127.0.0.1:${port}`)
		const inputs = [message(), message()]
		const ids: number[] = []
		for (const input of inputs) ids.push(await sendEmail(input))
		for (const [n, id] of ids.entries()) {
			const failure = await deliverEmail(id, transport).catch((error: unknown) => error)
			expect(failure).toBeInstanceOf(DeliveryFailed)
			// What the job keeps and the log shows: codes, not the server's words (they may quote the address).
			expect(JSON.stringify(loggedError(failure))).not.toContain(inputs[n]!.to)
			const row = await rowOf(id)
			expect(row).toMatchObject({ status: 'pending', attempts: 1, sentAt: null })
			expect(row.lastError).toMatch(/ECONNREFUSED/)
		}
		expect(JSON.stringify(warn.mock.calls)).not.toContain(inputs[0]!.to)

		const smtp = await startSmtpServer(port)
		try {
			// Two runs at once (a job that expired mid-send and its retry): one sends, the other waits its turn.
			for (const id of ids) {
				const runs = await Promise.allSettled([deliverEmail(id, transport), deliverEmail(id, transport)])
				expect(runs.filter((run) => run.status === 'fulfilled' && run.value === 'sent')).toHaveLength(1)
				for (const run of runs) if (run.status === 'rejected') expect(run.reason).toBeInstanceOf(DeliveryBusy)
			}
			for (const input of inputs) expect(smtp.received.filter((m) => m.headers.subject === input.subject)).toHaveLength(1)
			for (const id of ids) {
				const row = await rowOf(id)
				expect(row).toMatchObject({ status: 'sent', attempts: 2 })
				expect(row.sentAt).toBeInstanceOf(Date)
				expect(await deliverEmail(id, transport)).toBe('done')
			}
			expect(smtp.received.filter((m) => inputs.some((i) => i.subject === m.headers.subject))).toHaveLength(inputs.length)
		} finally {
			await smtp.close()
		}
	})

	test('after its last attempt the message is failed but kept, and no later run sends it', async () => {
		vi.spyOn(log, 'warn').mockImplementation(() => {})
		const transport = createSmtpTransport(`smtp://127.0.0.1:${await unusedPort()}`)
		const id = await sendEmail(message())
		await expect(deliverEmail(id, transport)).rejects.toBeInstanceOf(DeliveryFailed)
		await markUndeliverable(id)
		const row = await rowOf(id)
		expect(row).toMatchObject({ status: 'failed', attempts: 1, sentAt: null })
		expect(row.lastError).toMatch(/ECONNREFUSED/)
		expect(await deliverEmail(id, outboxTransport)).toBe('done')
		expect(await rowOf(id)).toMatchObject({ status: 'failed', attempts: 1 })
	})
})
