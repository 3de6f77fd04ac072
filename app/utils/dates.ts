// People read a date one way everywhere: 'March 14, 1948' (the responder page and the e-mails say it the same way).
const calendarDay = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' })
const foundationDay = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'America/New_York' })

/**
 * A calendar date as written in a form ('1948-03-14') is that day wherever the reader is; a moment (a Date) is told as
 * the day it was for the foundation, as orders are. Anything that is not a date is shown as it was given.
 */
export function formatDate(value: Date | string) {
	if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : foundationDay.format(value)
	const day = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00Z`) : null
	return day && !Number.isNaN(day.getTime()) ? calendarDay.format(day) : value
}

const foundationMoment = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'America/New_York' })

/** Spec 002 §9: the owner's screens tell times in America/New_York, marked ET. */
export function formatEtTime(value: Date | string | null | undefined) {
	if (!value) return ''
	const date = value instanceof Date ? value : new Date(value)
	return Number.isNaN(date.getTime()) ? '' : `${foundationMoment.format(date)} ET`
}
