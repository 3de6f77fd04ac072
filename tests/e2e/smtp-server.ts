import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'

export type ReceivedMail = { from: string; to: string[]; subject: string; text: string }

/** Quoted-printable soft breaks and escapes (UTF-8 bytes), enough to read a plain-text message nodemailer sent. */
function decodeBody(raw: string) {
	const body = raw.slice(raw.indexOf('\r\n\r\n') + 4).replace(/=\r\n/g, '')
	const bytes: number[] = []
	for (let i = 0; i < body.length; i++) {
		const hex = body[i] === '=' ? body.slice(i + 1, i + 3) : ''
		if (/^[0-9A-F]{2}$/.test(hex)) {
			bytes.push(parseInt(hex, 16))
			i += 2
		} else bytes.push(...Buffer.from(body[i]!, 'utf8'))
	}
	return Buffer.from(bytes).toString('utf8').replace(/\r\n/g, '\n')
}

/** A real SMTP server on loopback that keeps every message it accepts. */
export async function startSmtpServer() {
	const received: ReceivedMail[] = []
	const server = new SMTPServer({
		secure: false,
		disabledCommands: ['STARTTLS', 'AUTH'],
		logger: false,
		onData(stream, session, callback) {
			const chunks: Buffer[] = []
			stream.on('data', (chunk: Buffer) => chunks.push(chunk))
			stream.on('end', () => {
				const raw = Buffer.concat(chunks).toString('utf8')
				received.push({
					from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
					to: session.envelope.rcptTo.map((r) => r.address),
					subject: /^Subject: (.*)$/m.exec(raw)?.[1]?.trim() ?? '',
					text: decodeBody(raw),
				})
				callback()
			})
		},
	})
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject)
		server.listen(0, '127.0.0.1', () => resolve())
	})
	return {
		received,
		url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	}
}
