import postgres from 'postgres'
import { describe, expect, test, vi } from 'vitest'

/*
 * postgres.js 3.4.9 wrote to a connection's socket after the connection had lost it (porsager/postgres#1208): a
 * reserved connection whose server process died threw a TypeError from a timer, which no caller can catch, and the
 * process ended. pg-boss's locked maintenance runs on reserved connections (db/job-queues.ts), so a database restart
 * could end the app. patches/postgres+3.4.9.patch makes such a write fail the connection's queries instead.
 */
describe.skipIf(!process.env.DATABASE_URL)('the PostgreSQL driver, when the server ends a connection', () => {
	test('a reserved connection rejects its queries, the process lives on, and the pool connects anew', async () => {
		const url = process.env.DATABASE_URL!
		const client = postgres(url, { max: 2, onnotice: () => {} })
		const admin = postgres(url, { max: 1, onnotice: () => {} })
		try {
			const reserved = await client.reserve()
			const [row] = await reserved<{ pid: number }[]>`select pg_backend_pid() as pid`
			await admin`select pg_terminate_backend(${row!.pid})`
			for (let i = 0; i < 3; i++) {
				await expect(reserved`select 1`).rejects.toMatchObject({ code: expect.stringMatching(/^(ECONNRESET|CONNECTION_CLOSED)$/) })
				await new Promise((resolve) => setTimeout(resolve, 20))
			}
			reserved.release()
			await vi.waitFor(async () => expect(await client`select 1 as one`).toEqual([{ one: 1 }]), { timeout: 5_000, interval: 50 })
		} finally {
			await Promise.all([client.end({ timeout: 1 }), admin.end({ timeout: 1 })])
		}
	})
})
