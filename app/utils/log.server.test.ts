import { Writable } from 'node:stream'
import { sql } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { db } from '#db/client.ts'
import { createLogger, loggedError, runInLogScope } from './log.server.ts'

function capture() {
	const lines: Record<string, unknown>[] = []
	const stream = new Writable({
		write(chunk: Buffer, _encoding, done) {
			lines.push(
				...chunk
					.toString()
					.split('\n')
					.filter(Boolean)
					.map((line) => JSON.parse(line) as Record<string, unknown>),
			)
			done()
		},
	})
	return { log: createLogger(stream, 'debug'), lines }
}

const databaseError = async (statement: ReturnType<typeof sql>) => {
	try {
		await db.execute(statement)
	} catch (error) {
		return error
	}
	throw new Error('the statement did not fail')
}

describe('a log line', () => {
	test('carries the time, the level and the scope of the request or job it was written in', () => {
		const { log, lines } = capture()
		runInLogScope({ requestId: 'r-1', route: '/scan/:token' }, () => log.info({ ms: 3 }, 'request'))
		runInLogScope({ queue: 'send-email', jobId: 'j-1' }, () => log.warn('job failed'))
		log.info('outside')
		expect(lines[0]).toMatchObject({ level: 'info', requestId: 'r-1', route: '/scan/:token', ms: 3, msg: 'request' })
		expect(lines[0]!.time).toMatch(/^\d{4}-\d\d-\d\dT/)
		expect(lines[1]).toMatchObject({ level: 'warn', queue: 'send-email', jobId: 'j-1' })
		expect(lines[2]).not.toHaveProperty('requestId')
	})

	test('redacts cookies, authorization and personal fields, at the top and one level down', () => {
		const { log, lines } = capture()
		log.info({
			req: { headers: { cookie: 'session=s3cret', authorization: 'Bearer t0ken', accept: 'text/html' } },
			email: 'ana@example.org',
			user: { id: 7, fullName: 'Ana Lima', phone: '+1 555 0199', address: '1 Main St' },
			token: 'tok-123',
		})
		const text = JSON.stringify(lines[0])
		for (const secret of ['s3cret', 't0ken', 'ana@example.org', 'Ana Lima', '0199', 'Main St', 'tok-123'])
			expect(text).not.toContain(secret)
		expect(lines[0]).toMatchObject({ req: { headers: { accept: 'text/html' } }, user: { id: 7 } })
	})

	test("a failed statement keeps its class, code, table and constraint, never its parameters or PostgreSQL's message", async () => {
		const { log, lines } = capture()
		const email = `donor-${Date.now()}@example.org`
		const error = await databaseError(sql`select ${email}::int`)
		log.error({ err: error }, 'failed')
		expect(JSON.stringify(lines[0])).not.toContain(email)
		expect(lines[0]!.err).toMatchObject({ type: 'DatabaseError', code: '22P02', wrappedBy: expect.any(String) })

		const duplicate = await databaseError(
			sql`insert into rate_limits (key, reset_at, count) select ${email}, now(), 1 from generate_series(1, 2)`,
		)
		expect(loggedError(duplicate)).toMatchObject({
			type: 'DatabaseError',
			code: '23505',
			table: 'rate_limits',
			constraint: 'rate_limits_pkey',
		})
		expect(JSON.stringify(loggedError(duplicate))).not.toContain(email)
	})

	test('other errors keep class, code, message and stack; a Stripe error only its codes', () => {
		const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })
		expect(loggedError(refused)).toMatchObject({ type: 'Error', code: 'ECONNREFUSED', message: refused.message, stack: expect.any(String) })
		const stripe = Object.assign(new Error('Invalid email address: ana@example.org'), {
			type: 'StripeInvalidRequestError',
			code: 'email_invalid',
			requestId: 'req_1',
			statusCode: 400,
		})
		expect(loggedError(stripe)).toEqual({ type: 'StripeInvalidRequestError', code: 'email_invalid', requestId: 'req_1', statusCode: 400 })
		expect(loggedError('a string')).toEqual({ type: 'string' })
	})
})
