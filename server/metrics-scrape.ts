import { count, inArray, sql } from 'drizzle-orm'
import { Gauge, type Registry } from 'prom-client'
import { db, rowsOf } from '../db/client.ts'
import { JOB_SCHEMA } from '../db/job-queues.ts'
import { JOB_QUEUES } from '../app/jobs/queues.ts'
import { emails } from '../db/schema.ts'
import { log } from '../app/utils/log.server.ts'

/** A scrape must answer even when the database does not: what has not answered in this long is left out of it. */
export const SCRAPE_TIMEOUT_MS = 2000

type QueueCounts = Record<string, { waiting: number; active: number; failed: number }>
type EmailCounts = { pending: number; failed: number }

export type ScrapeSources = {
	/** The jobs pg-boss holds, by queue and state. */
	jobCounts?: () => Promise<QueueCounts>
	/** Messages in the outbox still to send, and those given up on. */
	emailCounts?: () => Promise<EmailCounts>
	/**
	 * Seconds since the newest database backup was made (null: none found). Without it there is no backup gauge: this
	 * process cannot tell on its own where backups are kept.
	 */
	newestBackupAgeSeconds?: () => Promise<number | null>
	timeoutMs?: number
}

type Source = 'jobs' | 'emails' | 'backups'
type Snapshot = { jobs?: QueueCounts; emails?: EmailCounts; backups?: number | null; up: Partial<Record<Source, boolean>> }

/**
 * The gauges read from the database when Prometheus scrapes: job queue depth and failures, the outbox, the newest
 * backup's age. One read serves every gauge of a scrape. A source that fails or is late is left out of that scrape (no
 * stale figure), and `hmh_metrics_source_up` says which; the process's own metrics are reported all the same.
 */
export function registerScrapeMetrics(
	registry: Registry,
	{ jobCounts = readJobCounts, emailCounts = readEmailCounts, newestBackupAgeSeconds, timeoutMs = SCRAPE_TIMEOUT_MS }: ScrapeSources = {},
) {
	let current: { at: number; snapshot: Promise<Snapshot> } | null = null
	/** The gauges of one scrape are collected together: they share one read (kept for a second). */
	const snapshot = () => {
		const now = performance.now()
		if (!current || now - current.at > 1000) current = { at: now, snapshot: read() }
		return current.snapshot
	}

	async function read(): Promise<Snapshot> {
		const [jobs, mail, backups] = await Promise.all([
			within('jobs', jobCounts, timeoutMs),
			within('emails', emailCounts, timeoutMs),
			newestBackupAgeSeconds ? within('backups', newestBackupAgeSeconds, timeoutMs) : undefined,
		])
		const up: Snapshot['up'] = { jobs: jobs.ok, emails: mail.ok }
		if (backups) up.backups = backups.ok
		return { jobs: jobs.value, emails: mail.value, backups: backups?.value, up }
	}

	const jobGauge = (name: string, help: string, state: keyof QueueCounts[string]) =>
		new Gauge({
			name,
			help,
			labelNames: ['queue'],
			registers: [registry],
			async collect() {
				const { jobs } = await snapshot()
				this.reset()
				if (!jobs) return
				for (const queue of Object.keys(JOB_QUEUES)) this.set({ queue }, jobs[queue]?.[state] ?? 0)
			},
		})
	jobGauge('hmh_job_queue_waiting', 'Jobs waiting to run (created or due a retry), by queue: the queue depth.', 'waiting')
	jobGauge('hmh_job_queue_active', 'Jobs running now, in any instance, by queue.', 'active')
	jobGauge('hmh_job_queue_failed', 'Jobs that failed for good and are still kept by pg-boss, by queue.', 'failed')

	new Gauge({
		name: 'hmh_emails',
		help: 'E-mails in the outbox by status: pending (still to send, retries included) and failed (given up on).',
		labelNames: ['status'],
		registers: [registry],
		async collect() {
			const { emails: counts } = await snapshot()
			this.reset()
			if (!counts) return
			this.set({ status: 'pending' }, counts.pending)
			this.set({ status: 'failed' }, counts.failed)
		},
	})

	if (newestBackupAgeSeconds) {
		new Gauge({
			name: 'hmh_backup_newest_age_seconds',
			help: 'Seconds since the newest database backup was made: +Inf when there is none, NaN when the listing was late.',
			registers: [registry],
			async collect() {
				// A gauge without labels is never absent (prom-client writes 0): no backup is the worst age there is.
				const { backups } = await snapshot()
				this.set(backups === undefined ? Number.NaN : backups === null ? Number.POSITIVE_INFINITY : backups)
			},
		})
	}

	new Gauge({
		name: 'hmh_metrics_source_up',
		help: 'Whether the source of the gauges read at scrape time answered in time (1) or not (0; its gauges are left out).',
		labelNames: ['source'],
		registers: [registry],
		async collect() {
			const { up } = await snapshot()
			this.reset()
			for (const [source, ok] of Object.entries(up)) this.set({ source }, ok ? 1 : 0)
		},
	})
}

async function within<T>(source: Source, read: () => Promise<T>, timeoutMs: number): Promise<{ ok: boolean; value?: T }> {
	let timer: ReturnType<typeof setTimeout> | undefined
	const late = new Promise<{ ok: false }>((resolve) => (timer = setTimeout(() => resolve({ ok: false }), timeoutMs)))
	const answer = read().then(
		(value) => ({ ok: true, value }),
		(error: unknown) => {
			log.warn({ err: error, source }, 'metrics source failed')
			return { ok: false }
		},
	)
	try {
		return await Promise.race([answer, late])
	} finally {
		clearTimeout(timer)
	}
}

/** One grouped count over pg-boss's job table; completed and cancelled jobs are not read. */
export async function readJobCounts(): Promise<QueueCounts> {
	const rows = rowsOf<{ name: string; state: string; n: number }>(
		await db.execute(sql`
			select name, state::text as state, count(*)::int as n from ${sql.identifier(JOB_SCHEMA)}.job
			where state in ('created', 'retry', 'active', 'failed') group by name, state`),
	)
	const counts: QueueCounts = {}
	for (const { name, state, n } of rows) {
		const queue = (counts[name] ??= { waiting: 0, active: 0, failed: 0 })
		if (state === 'active') queue.active += n
		else if (state === 'failed') queue.failed += n
		else queue.waiting += n
	}
	return counts
}

export async function readEmailCounts(): Promise<EmailCounts> {
	const rows = await db
		.select({ status: emails.status, n: count() })
		.from(emails)
		.where(inArray(emails.status, ['pending', 'failed']))
		.groupBy(emails.status)
	return {
		pending: rows.find((r) => r.status === 'pending')?.n ?? 0,
		failed: rows.find((r) => r.status === 'failed')?.n ?? 0,
	}
}
