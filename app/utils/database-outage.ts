import { isRouteErrorResponse } from 'react-router'

/*
 * What a page and the browser know of a database outage: the server answers 503 with this payload (see
 * app/middleware/database-outage.server.ts) and the error screen and the form-keeping client middleware read it.
 */

/** Seconds a client is asked to wait before trying again (Retry-After), as GET /healthz says. */
export const OUTAGE_RETRY_SECONDS = 5

export const OUTAGE_MESSAGE = 'The service is briefly unavailable. Please try again in a few seconds.'

/** A submitted field kept for the error screen: shown to edit, carried as it was, or asked for again (a password). */
export type KeptField = { name: string; value: string; kind: 'shown' | 'hidden' | 'secret' }

/** A form posted without JavaScript during the outage, to be sent again from the error screen. */
export type KeptForm = {
	action: string
	enctype: 'application/x-www-form-urlencoded' | 'multipart/form-data'
	fields: KeptField[]
	/** Names of the file fields: a file cannot be put back into a form, it must be chosen again. */
	files: string[]
}

export type DatabaseOutage = { databaseOutage: true; message: string; form: KeptForm | null }

/** A 503 the server gave because the database did not answer (thrown to the error boundary, or a fetcher's result). */
export function isDatabaseOutage(error: unknown): error is { status: 503; data: DatabaseOutage } {
	return isRouteErrorResponse(error) && error.status === 503 && (error.data as Partial<DatabaseOutage> | null)?.databaseOutage === true
}

/** "shippingAddress.postalCode" → "Shipping address postal code": a label for a kept field. */
export function fieldLabel(name: string) {
	const words = name
		.replace(/([a-z0-9])([A-Z])/g, '$1 $2')
		.replace(/[._[\]-]+/g, ' ')
		.trim()
		.toLowerCase()
	return words ? words[0]!.toUpperCase() + words.slice(1) : name
}
