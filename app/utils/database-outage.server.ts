import { createContext, type RouterContextProvider } from 'react-router'
import { log } from './log.server.ts'

/*
 * A lost database (restart, failover, network) is not a fault of the page that asked: the request is answered 503 with
 * Retry-After, and the database client reconnects by itself (db/client.ts). This module recognises such errors and
 * remembers, per request, that one happened (React Router hands every unexpected error to entry.server's handleError).
 */

/** Socket-level failures: no connection, or the connection went away. */
const CONNECTION_CODES = new Set([
	'ECONNREFUSED',
	'ECONNRESET',
	'EPIPE',
	'ETIMEDOUT',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'ENOTFOUND',
	'EAI_AGAIN',
	// postgres.js's own codes
	'CONNECT_TIMEOUT',
	'CONNECTION_CLOSED',
	'CONNECTION_ENDED',
	'CONNECTION_DESTROYED',
])

/**
 * SQLSTATEs of a server that is not serving: connection exceptions (class 08), shutting down or restarting
 * (57P01-57P03), too many connections (53300), read-only while failing over (25006).
 */
function unavailableSqlState(code: string) {
	return /^08/.test(code) || ['57P01', '57P02', '57P03', '53300', '25006'].includes(code)
}

/** Whether an error (or any error in its `cause` chain, as Drizzle wraps the driver's) says the database cannot be reached. */
export function isDatabaseUnavailable(error: unknown): boolean {
	for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
		const code = (e as { code?: unknown }).code
		if (typeof code !== 'string') continue
		if (CONNECTION_CODES.has(code)) return true
		if ((e as { name?: unknown }).name === 'PostgresError' && unavailableSqlState(code)) return true
	}
	return false
}

/** Set for each request by the outage middleware: whether the database failed it somewhere. */
export const databaseOutageContext = createContext<{ unavailable: boolean } | null>(null)

let lastLogged = 0
let unlogged = 0

/**
 * For handleError: a database outage marks the request (so it is answered 503) and is logged as one line every few
 * seconds, not a stack trace per request. Returns whether the error was one.
 */
export function noteDatabaseError(error: unknown, context: Readonly<RouterContextProvider> | undefined) {
	if (!isDatabaseUnavailable(error)) return false
	const state = context && typeof context.get === 'function' ? context.get(databaseOutageContext) : null
	if (state) state.unavailable = true
	const now = Date.now()
	if (now - lastLogged < 5000) {
		unlogged++
		return true
	}
	log.error({ cause: describe(error), since: unlogged }, 'database unavailable: answering 503')
	lastLogged = now
	unlogged = 0
	return true
}

function describe(error: unknown) {
	for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
		const { code, message } = e as { code?: unknown; message?: unknown }
		if (typeof code === 'string') return `${code}${typeof message === 'string' ? `: ${message.slice(0, 120)}` : ''}`
	}
	return 'no answer'
}
