// When a profile is next due for review (client-safe: the dashboard shows it). The reminder job asks the same of the
// database in SQL (reviews.server.ts), with PostgreSQL's month arithmetic, which this follows.

/** How often the owner may choose to be asked, in months; six by default, as Smart911 asks. */
export const REVIEW_INTERVALS = [1, 3, 6, 12, 24] as const
/** How long a reminder's "Still correct" link works. */
export const REVIEW_LINK_DAYS = 30

/** `date` plus whole months in UTC, the day clamped to the month's last (Jan 31 + 1 month = Feb 28 or 29), as PostgreSQL does. */
export function addMonths(date: Date, months: number) {
	const target = new Date(date)
	const day = target.getUTCDate()
	target.setUTCDate(1)
	target.setUTCMonth(target.getUTCMonth() + months)
	const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate()
	target.setUTCDate(Math.min(day, lastDay))
	return target
}

export type ReviewDates = { confirmedAt: Date | string | null; createdAt: Date | string; reviewIntervalMonths: number }

/** Last confirmed (or, never confirmed, created), when the next review is due, and whether it is due now. */
export function reviewStatus(profile: ReviewDates, now = new Date()) {
	const confirmedOn = new Date(profile.confirmedAt ?? profile.createdAt)
	const dueAt = addMonths(confirmedOn, profile.reviewIntervalMonths)
	return { confirmedOn, dueAt, due: dueAt.getTime() <= now.getTime() }
}

export const intervalLabel = (months: number) => (months === 1 ? 'every month' : `every ${months} months`)
