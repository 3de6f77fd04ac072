import type PgBoss from 'pg-boss'
import { db, type Database } from '#db/client.ts'
import { jobBoss, JOB_QUEUES, type JobData, type JobQueue } from '#db/job-queues.ts'

export type JobHandlers = { [Q in JobQueue]: (data: JobData[Q]) => Promise<unknown> }

/** A lost database fails every poll of every queue: one line per kind of failure per half minute is enough. */
function quietErrorLog(name: string) {
	const lastLogged = new Map<string, number>()
	return (error: unknown) => {
		const message = error instanceof Error ? error.message : String(error)
		if (Date.now() - (lastLogged.get(message) ?? 0) < 30_000) return
		lastLogged.set(message, Date.now())
		console.warn(`[jobs] ${name}: ${message}`)
	}
}

const g = globalThis as { __jobSender?: PgBoss; __jobWakers?: Map<JobQueue, () => void> }
/** The workers this process runs, by queue: a job queued here starts at once rather than at the next poll. */
const wakers = (g.__jobWakers ??= new Map())

/** Only sends: never started, it runs nothing, so a process that enqueues (a request, a script, a test) needs no workers. */
function sender() {
	if (!g.__jobSender) {
		g.__jobSender = jobBoss(db)
		g.__jobSender.on('error', quietErrorLog('send'))
	}
	return g.__jobSender
}

/**
 * Puts a job on its queue. This process's worker, if it runs one, starts on it at once; otherwise an instance running
 * workers picks it up within the queue's polling interval. Returns the job's id, or null when the queue's policy
 * folded it into one already waiting.
 */
export async function enqueue<Q extends JobQueue>(queue: Q, data: JobData[Q], options: PgBoss.SendOptions = {}) {
	const id = await sender().send(queue, data, options)
	if (!options.startAfter) wakers.get(queue)?.()
	return id
}

/**
 * Runs every queue's jobs in this process until the returned function stops it. Any number of instances may run
 * workers: pg-boss hands each job to one of them (SELECT … FOR UPDATE SKIP LOCKED), and one instance sends each clock
 * tick's job. The stop function waits up to timeoutMs for jobs under way.
 */
export async function startJobWorkers(handlers: JobHandlers, database: Database = db) {
	const boss = jobBoss(database, { supervise: true, schedule: true })
	boss.on('error', quietErrorLog('runner'))
	await boss.start()
	for (const [queue, settings] of Object.entries(JOB_QUEUES) as [JobQueue, (typeof JOB_QUEUES)[JobQueue]][]) {
		const handle = handlers[queue] as (data: unknown) => Promise<unknown>
		if ('cron' in settings) {
			await boss.schedule(queue, settings.cron)
			// Catch up at start (after downtime) rather than at the next tick; queued first, so the first poll finds it.
			await boss.send(queue, {})
		}
		const workerId = await boss.work(queue, { pollingIntervalSeconds: settings.pollSeconds, batchSize: 1 }, async ([job]) => {
			try {
				await handle(job!.data)
			} catch (error) {
				console.warn(`[jobs] ${queue} job ${job!.id} failed:`, error)
				throw error
			} finally {
				// pg-boss waits a whole polling interval after each job; a worker that found one asks again at once, so a
				// backlog drains as fast as its jobs run rather than one job a poll.
				boss.notifyWorker(workerId)
			}
		})
		wakers.set(queue, () => boss.notifyWorker(workerId))
	}
	return (timeoutMs = 10_000) => {
		for (const queue of Object.keys(JOB_QUEUES) as JobQueue[]) wakers.delete(queue)
		return boss.stop({ graceful: true, wait: true, close: false, timeout: timeoutMs })
	}
}
