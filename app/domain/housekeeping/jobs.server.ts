import { startJobWorkers } from '#app/adapters/jobs.server.ts'
import { deliverPendingEmails } from '#app/adapters/mail.server.ts'
import { rollUpAll } from '#app/domain/analytics/rollup.server.ts'
import { sendWaitingUpdates } from '#app/domain/responder/helping.server.ts'
import { sendDueReviewReminders } from '#app/domain/reviews/reviews.server.ts'
import { pruneExpired } from './prune.server.ts'
import { sealOutstanding } from './reseal.server.ts'

/** What each queue's job does (queues, schedules and retries: db/job-queues.ts). Returns the function that stops them. */
export function startJobs() {
	return startJobWorkers({
		'deliver-email': () => deliverPendingEmails(500),
		'helping-updates': () => sendWaitingUpdates(),
		'analytics-rollup': () => rollUpAll(),
		'prune-expired': () => pruneExpired(),
		'review-reminders': () => sendDueReviewReminders(),
		'seal-data': () => sealOutstanding(),
	})
}
