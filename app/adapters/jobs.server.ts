import type PgBoss from 'pg-boss'
import { db, type Database, type Executor } from '#db/client.ts'
import { jobBoss, transactionJobDatabase } from '#db/job-queues.ts'
import { JOB_QUEUES, type JobData, type JobQueue } from '#app/jobs/queues.ts'
import { log, loggedError, runInLogScope } from '#app/utils/log.server.ts'

export type JobHandlers = { [Q in JobQueue]: (data: JobData[Q]) => Promise<unknown> }

/** A lost database fails every poll of every queue: one line per kind of failure per half minute is enough. */
function quietErrorLog(name: string) {
	const lastLogged = new Map<string, number>()
	return (error: unknown) => {
		const key = JSON.stringify(loggedError(error))
		if (Date.now() - (lastLogged.get(key) ?? 0) < 30_000) return
		lastLogged.set(key, Date.now())
		log.warn({ queue: name, err: error }, 'job queue unavailable')
	}
}

/** The workers this process runs, by queue: a job queued here starts at once rather than at the next poll. */
const wakers = new Map<string, Set<() => void>>()

let jobSender: PgBoss | undefined
/** Only sends: never started, it runs nothing, so a process that enqueues (a request, a script, a test) needs no workers. */
function sender() {
	if (!jobSender) {
		jobSender = jobBoss(db)
		jobSender.on('error', quietErrorLog('send'))
	}
	return jobSender
}

/**
 * Puts a job on its queue. This process's worker, if it runs one, starts on it at once; otherwise an instance running
 * workers picks it up within the queue's polling interval. Returns the job's id, or null when the queue's policy
 * folded it into one already waiting.
 */
export async function enqueue<Q extends JobQueue>(queue: Q, data: JobData[Q], options: PgBoss.SendOptions = {}) {
	const id = await sender().send(queue, data, options)
	if (!options.startAfter) wakeWorkers(queue)
	return id
}

/**
 * Puts a job on its queue inside the caller's transaction: it exists exactly when the rows written beside it do. Workers
 * see it after the commit, at their next poll, or at once if the caller then calls wakeWorkers.
 */
export async function enqueueInTransaction<Q extends JobQueue>(tx: Executor, queue: Q, data: JobData[Q]) {
	return sender().send(queue, data, { db: transactionJobDatabase(tx) })
}

/** Starts this process's idle workers of a queue on jobs just committed, rather than at their next poll. */
export function wakeWorkers(queue: JobQueue) {
	for (const wake of wakers.get(queue) ?? []) wake()
}

/** What a failed job keeps as its output (pg-boss shows it with the job): what a log line would, no statement's values. */
const failure = (error: unknown) => loggedError(error)

/**
 * Runs one queue's jobs, one at a time, until the returned function is called (it resolves once the job under way has
 * ended). Any number of workers, in any number of instances, may run one queue: pg-boss hands each job to one of them
 * (SELECT … FOR UPDATE SKIP LOCKED).
 *
 * pg-boss's own worker (work()) was not used: it waits a whole polling interval after every job, so a backlog drained at
 * one job a poll, and it does not await a job's completion, so a database lost between a job and its completion was an
 * unhandled rejection that ended the process. Here a worker that found a job asks again at once, and the completion is
 * awaited and retried until the database answers: a finished job is never left active to expire and run again.
 */
export function runWorker(
	boss: PgBoss,
	queue: string,
	{ pollSeconds }: { pollSeconds: number },
	handle: (data: unknown) => Promise<unknown>,
	logError: (error: unknown) => void = quietErrorLog(queue),
) {
	let stopping = false
	let wakeUp: (() => void) | null = null
	const wake = () => wakeUp?.()
	/** Waits ms, or less when woken (a job queued here, or stopping). */
	const rest = (ms: number) =>
		new Promise<void>((resolve) => {
			const done = () => {
				clearTimeout(timer)
				wakeUp = null
				resolve()
			}
			const timer = setTimeout(done, ms)
			wakeUp = done
		})

	async function settle(job: PgBoss.Job<unknown>, outcome: () => Promise<unknown>) {
		for (let attempt = 0; ; attempt++) {
			try {
				await outcome()
				return
			} catch (error) {
				logError(error)
				// Stopping gives up after a few tries: the job then expires and is retried as its queue says.
				if (stopping && attempt >= 3) return
				await rest(Math.min(500 * 2 ** attempt, 5_000))
			}
		}
	}

	async function runJob(job: PgBoss.Job<unknown>) {
		const started = performance.now()
		try {
			await handle(job.data)
		} catch (error) {
			log.warn({ err: error, ms: Math.round(performance.now() - started) }, 'job failed')
			return settle(job, () => boss.fail(queue, job.id, failure(error)))
		}
		log.debug({ ms: Math.round(performance.now() - started) }, 'job done')
		return settle(job, () => boss.complete(queue, job.id))
	}

	const running = (async () => {
		while (!stopping) {
			// fetch answers [] when the database is away (pg-boss swallows the error): the worker then rests as when idle.
			const [job] = await boss.fetch(queue, { batchSize: 1 }).catch((error: unknown) => {
				logError(error)
				return []
			})
			if (job) await runInLogScope({ queue, jobId: job.id }, () => runJob(job))
			else if (!stopping) await rest(pollSeconds * 1000)
		}
	})()

	const set = wakers.get(queue) ?? new Set()
	wakers.set(queue, set.add(wake))
	return () => {
		stopping = true
		set.delete(wake)
		wake()
		return running
	}
}

/**
 * Runs every queue's jobs in this process until the returned function stops it. Any number of instances may run
 * workers; one instance sends each clock tick's job. The stop function waits up to timeoutMs for jobs under way.
 */
export async function startJobWorkers(handlers: JobHandlers, database: Database = db) {
	const boss = jobBoss(database, { supervise: true, schedule: true })
	boss.on('error', quietErrorLog('runner'))
	await boss.start()
	const stops: Array<() => Promise<void>> = []
	for (const [queue, settings] of Object.entries(JOB_QUEUES) as [JobQueue, (typeof JOB_QUEUES)[JobQueue]][]) {
		if ('cron' in settings) {
			await boss.schedule(queue, settings.cron)
			// Catch up at start (after downtime) rather than at the next tick; queued first, so the first poll finds it.
			await boss.send(queue, {})
		}
		stops.push(runWorker(boss, queue, settings, handlers[queue] as (data: unknown) => Promise<unknown>))
	}
	return async (timeoutMs = 10_000) => {
		const stopped = Promise.all(stops.map((stop) => stop()))
		let timer: ReturnType<typeof setTimeout> | undefined
		const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))
		await Promise.race([stopped, late]).finally(() => clearTimeout(timer))
		await boss.stop({ graceful: false, close: false })
	}
}
