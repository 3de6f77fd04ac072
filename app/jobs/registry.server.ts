import { startJobWorkers } from '#app/adapters/jobs.server.ts'
import { deliverEmail, markUndeliverable, queueUnsentEmails } from '#app/adapters/mail.server.ts'
import { log } from '#app/utils/log.server.ts'
import { rollUpAll } from '#app/domain/analytics/rollup.server.ts'
import { sendWaitingUpdates } from '#app/domain/responder/helping.server.ts'
import { sendDueReviewReminders } from '#app/domain/reviews/reviews.server.ts'
import { pruneExpired } from '#app/domain/housekeeping/prune.server.ts'
import { sealOutstanding } from '#app/domain/housekeeping/reseal.server.ts'

/**
 * What each queue's job does, beside what each queue is (queues.ts: retries, expiry, polling, clock): every queue has
 * its handler here, or the type check fails. Returns the function that stops the workers.
 */
export async function startJobs() {
	const stop = await startJobWorkers({
		'send-email': ({ emailId }) => deliverEmail(emailId),
		'email-undeliverable': ({ emailId }) => markUndeliverable(emailId),
		'helping-updates': () => sendWaitingUpdates(),
		'analytics-rollup': () => rollUpAll(),
		'prune-expired': () => pruneExpired(),
		'review-reminders': () => sendDueReviewReminders(),
		'seal-data': () => sealOutstanding(),
	})
	await queueUnsentEmails().catch((error: unknown) => log.warn({ err: error }, 'unsent e-mail not queued at start'))
	return stop
}
