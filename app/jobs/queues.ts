import type PgBoss from 'pg-boss'

/*
 * Every job of the app, in one place: here what each queue is (how pg-boss keeps, retries and clocks its jobs), in
 * registry.server.ts what each one does. The database's start-up work creates the queues from this list
 * (db/job-queues.ts, db/prepare.ts); the workers (app/adapters/jobs.server.ts) run them.
 */

export type QueueSettings = {
	/** How pg-boss keeps, retries and expires the queue's jobs. */
	jobs: Omit<PgBoss.Queue, 'name'>
	/** How often an idle instance asks for work. */
	pollSeconds: number
	/** When the queue also runs on a clock (pg-boss sends each tick's job once, whatever the number of instances). */
	cron?: string
}

/**
 * Every queue of the app. A "stately" queue holds at most one waiting and one running job: a sweep asked for a hundred
 * times while one runs happens once more, not a hundred times.
 */
export const JOB_QUEUES = {
	// A message that failed every attempt: marked failed and kept (mail.server.ts). Listed before the queue it serves.
	'email-undeliverable': { jobs: { retryLimit: 5, retryDelay: 60, expireInSeconds: 60 }, pollSeconds: 30 },
	// One job per message, written with it (mail.server.ts). A failed attempt is retried 9 times, waiting 1–2, 2–4, 4–8, …
	// minutes (pg-boss's backoff, with jitter): about 8 to 17 hours in all, then 'email-undeliverable'. A send outlasts
	// no expiry: SMTP waits are bounded well under it.
	'send-email': {
		jobs: { retryLimit: 9, retryDelay: 60, retryBackoff: true, expireInSeconds: 300, deadLetter: 'email-undeliverable' },
		pollSeconds: 2,
	},
	// Sends what "I'm helping" senders wrote since their last e-mail, as one update each (helping.server.ts).
	'helping-updates': { jobs: { policy: 'stately', retryLimit: 0, expireInSeconds: 300 }, pollSeconds: 10, cron: '* * * * *' },
	'analytics-rollup': { jobs: { policy: 'stately', retryLimit: 0, expireInSeconds: 600 }, pollSeconds: 5, cron: '* * * * *' },
	'prune-expired': { jobs: { policy: 'stately', retryLimit: 0, expireInSeconds: 600 }, pollSeconds: 30, cron: '*/15 * * * *' },
	// Asks owners whose profiles are due a review whether they are still correct (reviews.server.ts).
	'review-reminders': { jobs: { policy: 'stately', retryLimit: 0, expireInSeconds: 900 }, pollSeconds: 30, cron: '7 * * * *' },
	// Seals data not sealed under the current key (reseal.server.ts): at start, then daily; it works only after a change.
	'seal-data': {
		jobs: { policy: 'stately', retryLimit: 2, retryDelay: 300, expireInSeconds: 6 * 3600 },
		pollSeconds: 60,
		cron: '23 4 * * *',
	},
} as const satisfies Record<string, QueueSettings>

export type JobQueue = keyof typeof JOB_QUEUES

/** What each queue's job carries: ids and instants only, never personal data (job rows are not encrypted). */
export type JobData = {
	'send-email': { emailId: number }
	'email-undeliverable': { emailId: number }
	'helping-updates': Record<string, never>
	'analytics-rollup': Record<string, never>
	'prune-expired': Record<string, never>
	'review-reminders': Record<string, never>
	'seal-data': Record<string, never>
}
