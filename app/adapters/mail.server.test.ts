import { createServer, type AddressInfo } from 'node:net'
import { eq, inArray, sql } from 'drizzle-orm'
import { SMTPServer } from 'smtp-server'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest'
import { db, rowsOf } from '#db/client.ts'
import { emails } from '#db/schema.ts'
import { env } from '#app/utils/env.server.ts'
import { log } from '#app/utils/log.server.ts'
import { createUser, uniqueEmail } from '#tests/factories.ts'
import {
	createSmtpTransport,
	defaultMailTransport,
	deliverPendingEmails,
	MAX_ATTEMPTS,
	messagesTo,
	outboxTransport,
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
const makeDue = (ids: number[]) =>
	db
		.update(emails)
		.set({ nextAttemptAt: new Date(Date.now() - 1000) })
		.where(inArray(emails.id, ids))
const secondsUntil = (date: Date) => (date.getTime() - Date.now()) / 1000
/** Sends what is due, ours among it (other tests' messages may be due too, hence the generous limit). */
const deliverDue = (transport: Parameters<typeof deliverPendingEmails>[1]) => deliverPendingEmails(1000, transport)
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
// Other test files share the database and leave messages waiting (a scan records its alert): each test here delivers
// only its own.
beforeEach(async () => {
	await db
		.update(emails)
		.set({ nextAttemptAt: sql`now() + interval '1 day'` })
		.where(eq(emails.status, 'pending'))
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
		await deliverDue(transport)

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
		await deliverDue(transport)

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
		await deliverDue(outboxTransport)

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

describe('when delivery fails', () => {
	test('the row stays pending and is delivered exactly once after the server is back', async () => {
		const warn = vi.spyOn(log, 'warn').mockImplementation(() => {})
		const port = await unusedPort()
		const transport = createSmtpTransport(`smtp://127.0.0.1:${port}`)
		const inputs = [message(), message(), message()]
		const ids: number[] = []
		for (const input of inputs) ids.push(await sendEmail(input))
		await deliverDue(transport)

		for (const id of ids) {
			const row = await rowOf(id)
			expect(row).toMatchObject({ status: 'pending', attempts: 1, sentAt: null })
			expect(row.lastError).toMatch(/ECONNREFUSED/)
			expect(secondsUntil(row.nextAttemptAt)).toBeGreaterThan(50)
			expect(secondsUntil(row.nextAttemptAt)).toBeLessThan(70)
		}
		expect(warn).toHaveBeenCalled()

		const smtp = await startSmtpServer(port)
		try {
			await deliverDue(transport)
			expect(smtp.received.filter((m) => inputs.some((i) => i.subject === m.headers.subject))).toHaveLength(0) // not due yet

			await makeDue(ids)
			const runs = await Promise.all([deliverDue(transport), deliverDue(transport)])
			expect(runs[0].sent + runs[1].sent).toBeGreaterThanOrEqual(inputs.length)
			for (const input of inputs) expect(smtp.received.filter((m) => m.headers.subject === input.subject)).toHaveLength(1)
			for (const id of ids) {
				const row = await rowOf(id)
				expect(row).toMatchObject({ status: 'sent', attempts: 2 })
				expect(row.sentAt).toBeInstanceOf(Date)
			}

			await makeDue(ids)
			await deliverDue(transport)
			expect(smtp.received.filter((m) => inputs.some((i) => i.subject === m.headers.subject))).toHaveLength(inputs.length)
		} finally {
			await smtp.close()
		}
	})

	test('retries back off, and after the attempt limit the row is failed but kept', async () => {
		vi.spyOn(log, 'warn').mockImplementation(() => {})
		const transport = createSmtpTransport(`smtp://127.0.0.1:${await unusedPort()}`)
		const id = await sendEmail(message())
		await deliverDue(transport)
		const minutesToNext = [Math.round(secondsUntil((await rowOf(id)).nextAttemptAt) / 60)]

		for (let attempt = 2; attempt <= MAX_ATTEMPTS; attempt++) {
			await makeDue([id])
			await deliverDue(transport)
			const row = await rowOf(id)
			expect(row.attempts).toBe(attempt)
			if (row.status === 'pending') minutesToNext.push(Math.round(secondsUntil(row.nextAttemptAt) / 60))
		}
		expect(minutesToNext).toEqual([1, 5, 30, 120, 720])

		const row = await rowOf(id)
		expect(row).toMatchObject({ status: 'failed', attempts: 6, sentAt: null })
		expect(row.lastError).toMatch(/ECONNREFUSED/)

		await makeDue([id])
		await deliverDue(transport)
		expect(await rowOf(id)).toMatchObject({ status: 'failed', attempts: 6 })
	})
})
