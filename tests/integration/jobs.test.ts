import { randomUUID } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { connect, db, rowsOf } from '#db/client.ts'
import PgBoss from 'pg-boss'
import { jobBoss, jobDatabase, JOB_SCHEMA } from '#db/job-queues.ts'
import { JOB_QUEUES } from '#app/jobs/queues.ts'
import * as s from '#db/schema.ts'
import { runWorker } from '#app/adapters/jobs.server.ts'
import { sendEmail } from '#app/adapters/mail.server.ts'
import { startJobs } from '#app/jobs/registry.server.ts'
import { recordScan } from '#app/domain/responder/responder.server.ts'
import { claimedProfile } from '#tests/profiles.ts'
import { uniqueEmail } from '#tests/factories.ts'

const emailRow = async (id: number) => (await db.select().from(s.emails).where(eq(s.emails.id, id)))[0]!

/** A queue of the test's own, so the app's workers (if any) never touch its jobs. */
async function testQueue(boss: ReturnType<typeof jobBoss>, options: { retryLimit?: number; deadLetter?: string } = {}) {
	const name = `test-${randomUUID()}`
	await boss.createQueue(name, {
		name,
		retryLimit: options.retryLimit ?? 0,
		retryDelay: 0,
		...(options.deadLetter && { deadLetter: options.deadLetter }),
	})
	return name
}

describe('the app job runner', () => {
	let stop: Awaited<ReturnType<typeof startJobs>>
	const expiredSession = `expired-${randomUUID()}`
	beforeAll(async () => {
		await db.insert(s.sessions).values({ id: expiredSession, expiresAt: sql`now() - interval '1 minute'` })
		stop = await startJobs()
	})
	afterAll(async () => {
		await stop(2_000)
		vi.restoreAllMocks()
	})

	test('a message sendEmail recorded is delivered by its send-email job within seconds', async () => {
		const id = await sendEmail({ to: uniqueEmail('job'), type: 'order-confirmation', subject: 'Welcome', text: 'Hello.' })
		await vi.waitFor(async () => expect(await emailRow(id)).toMatchObject({ status: 'sent', attempts: 1 }), {
			timeout: 10_000,
			interval: 100,
		})
	})

	test('a scan that is due an alert e-mails the owner: the scan records the message, its job sends it', async () => {
		const { user, sticker } = await claimedProfile('Alert Person')
		const code = await db.query.qrCodes.findFirst({ where: eq(s.qrCodes.pin, sticker.pin) })
		await recordScan(code!.id, { userAgent: 'Mozilla/5.0 (iPhone)', address: '198.51.100.9', trustedHeaders: null, viewerIsOwner: false })
		await vi.waitFor(
			async () => {
				const [alert] = await db.select().from(s.emails).where(eq(s.emails.userId, user.id))
				expect(alert).toMatchObject({ emailType: 'scan-alert', status: 'sent', subject: `Your QR code ${sticker.pin} was scanned` })
			},
			{ timeout: 15_000, interval: 100 },
		)
	})

	test('pruning and rollups run on their clocks, and once at start', async () => {
		const schedules = await jobBoss(db).getSchedules()
		expect(Object.fromEntries(schedules.map((schedule) => [schedule.name, schedule.cron]))).toMatchObject({
			'analytics-rollup': '* * * * *',
			'prune-expired': '*/15 * * * *',
			'review-reminders': '7 * * * *',
		})
		await vi.waitFor(async () => expect(await db.$count(s.sessions, eq(s.sessions.id, expiredSession))).toBe(0), {
			timeout: 15_000,
			interval: 200,
		})
	})
})

describe('queues', () => {
	test('every queue exists with its settings', async () => {
		const queues = await jobBoss(db).getQueues()
		for (const [name, { jobs }] of Object.entries(JOB_QUEUES))
			expect(queues.find((queue) => queue.name === name)).toMatchObject({ name, ...jobs })
	})

	test('a stately queue folds a second waiting job into the first', async () => {
		const boss = jobBoss(db)
		const name = `test-${randomUUID()}`
		await boss.createQueue(name, { name, policy: 'stately' })
		expect(await boss.send(name, {})).toEqual(expect.any(String))
		expect(await boss.send(name, {})).toBeNull()
	})

	test('a job that throws is retried as its queue says, then failed with the error kept', async () => {
		const boss = jobBoss(db)
		const name = await testQueue(boss, { retryLimit: 1 })
		let calls = 0
		const stop = runWorker(boss, name, { pollSeconds: 0.2 }, async () => {
			calls++
			throw new Error('the mail server said no')
		})
		const id = (await boss.send(name, { n: 1 }))!
		try {
			await vi.waitFor(async () => expect((await boss.getJobById(name, id))?.state).toBe('failed'), { timeout: 10_000, interval: 100 })
			expect(calls).toBe(2)
			expect((await boss.getJobById(name, id))?.output).toMatchObject({ message: 'the mail server said no' })
		} finally {
			await stop()
		}
	})

	test('a job that fails its last retry goes to its dead-letter queue with its data (an undeliverable e-mail)', async () => {
		const boss = jobBoss(db)
		const deadLetter = await testQueue(boss)
		const name = await testQueue(boss, { retryLimit: 1, deadLetter })
		const dead: unknown[] = []
		const stops = [
			runWorker(boss, name, { pollSeconds: 0.2 }, async () => {
				throw new Error('the mail server said no')
			}),
			runWorker(boss, deadLetter, { pollSeconds: 0.2 }, async (data) => void dead.push(data)),
		]
		try {
			await boss.send(name, { emailId: 42 })
			await vi.waitFor(() => expect(dead).toEqual([{ emailId: 42 }]), { timeout: 10_000, interval: 100 })
		} finally {
			await Promise.all(stops.map((stop) => stop()))
		}
	})

	test('a backlog drains as fast as its jobs run, not one job a polling interval', async () => {
		// At one job a poll (2 s) the last of 40 would wait 80 s.
		const boss = jobBoss(db)
		const name = await testQueue(boss)
		let runs = 0
		const stop = runWorker(boss, name, { pollSeconds: 2 }, async () => runs++)
		try {
			await boss.insert(Array.from({ length: 40 }, (_, n) => ({ name, data: { n } })))
			await vi.waitFor(() => expect(runs).toBe(40), { timeout: 8_000, interval: 100 })
		} finally {
			await stop()
		}
	})

	test('stopping waits for the job under way', async () => {
		const boss = jobBoss(db)
		const name = await testQueue(boss)
		let finished = false
		let started!: () => void
		const running = new Promise<void>((resolve) => (started = resolve))
		const stop = runWorker(boss, name, { pollSeconds: 0.2 }, async () => {
			started()
			await new Promise((resolve) => setTimeout(resolve, 700))
			finished = true
		})
		const id = (await boss.send(name, {}))!
		await running
		await stop()
		expect(finished).toBe(true)
		expect((await boss.getJobById(name, id))?.state).toBe('completed')
	})

	test('a database lost between a job and its completion: the job is completed once it answers, and run once', async () => {
		const real = jobDatabase(db)
		let refusals = 2
		const flaky = new PgBoss({
			db: {
				executeSql(text, values) {
					if (/state = 'completed'/.test(text) && refusals-- > 0)
						return Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))
					return real.executeSql(text, values)
				},
			},
			schema: JOB_SCHEMA,
			supervise: false,
			schedule: false,
			migrate: false,
		})
		const name = await testQueue(jobBoss(db))
		const unhandled: unknown[] = []
		const onUnhandled = (reason: unknown) => unhandled.push(reason)
		process.on('unhandledRejection', onUnhandled)
		let runs = 0
		const stop = runWorker(
			flaky,
			name,
			{ pollSeconds: 0.2 },
			async () => runs++,
			() => {},
		)
		try {
			const id = (await flaky.send(name, {}))!
			await vi.waitFor(async () => expect((await flaky.getJobById(name, id))?.state).toBe('completed'), { timeout: 10_000, interval: 100 })
			expect(refusals).toBeLessThan(0)
			expect(runs).toBe(1)
			expect(unhandled).toEqual([])
		} finally {
			await stop()
			process.off('unhandledRejection', onUnhandled)
		}
	})
})

describe('several instances', () => {
	// On PostgreSQL each instance has its own connections, as separate servers would; PGlite allows one client per
	// database, so there the instances share it (the queries still interleave).
	const instances = Array.from({ length: 3 }, () =>
		process.env.DATABASE_URL ? connect(process.env.DATABASE_URL, 'unused') : { db, close: async () => {} },
	)
	afterAll(() => Promise.all(instances.map((instance) => instance.close())))

	test('never run one job twice: 150 jobs over three instances, each run exactly once', async () => {
		const bosses = instances.map((instance) => jobBoss(instance.db))
		const name = await testQueue(bosses[0]!)
		const runs: { id: number; instance: number }[] = []
		const stops = bosses.map((boss, instance) =>
			runWorker(boss, name, { pollSeconds: 0.2 }, async (data) => {
				runs.push({ id: (data as { n: number }).n, instance })
				await new Promise((resolve) => setTimeout(resolve, 5))
			}),
		)
		try {
			await bosses[0]!.insert(Array.from({ length: 150 }, (_, n) => ({ name, data: { n } })))
			await vi.waitFor(() => expect(runs.length).toBeGreaterThanOrEqual(150), { timeout: 20_000, interval: 100 })
			await new Promise((resolve) => setTimeout(resolve, 1_000))
			expect(runs).toHaveLength(150)
			expect(new Set(runs.map((run) => run.id)).size).toBe(150)
			expect(new Set(runs.map((run) => run.instance)).size).toBeGreaterThan(1)
			const completed = rowsOf<{ count: number }>(
				await db.execute(sql`select count(*)::int as count from pgboss.job where name = ${name} and state = 'completed'`),
			)
			expect(completed[0]!.count).toBe(150)
		} finally {
			await Promise.all(stops.map((stop) => stop()))
		}
	})
})
