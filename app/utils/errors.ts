/** The status a refused domain operation maps to, on a page or in a JSON answer. */
export type DomainStatus = 400 | 403 | 404 | 409 | 413 | 429 | 503

/**
 * The one way domain code refuses: the status, a message for the person, and the field it belongs to when there is one.
 * Routes turn it into a field error, a toast, a 404 page or a JSON error; the domain never knows which.
 */
export class DomainError extends Error {
	constructor(
		readonly status: DomainStatus,
		message: string,
		readonly field?: string,
		/** For a 429 or 503: when asking again may work. */
		readonly retryAfterSeconds?: number,
	) {
		super(message)
		this.name = 'DomainError'
	}
}

/** What a form that sent an action the page does not have is told (an old tab, a changed form): a 400. */
export const UNKNOWN_ACTION = 'Unknown action: reload the page and try again.'

/**
 * The default of a switch over a form's intents that handles each one: `action` is `never` there, so a new intent
 * without its case fails the type check; at run time an unhandled one throws.
 */
export function unhandledIntent(action: never): never {
	throw new Error(`Unhandled intent ${JSON.stringify(action)}`)
}
