import { AsyncLocalStorage } from 'node:async_hooks'

/** Where the request being answered came from: the client's address, and a coarse place from a trusted proxy. */
export type RequestScope = { ipAddress: string | null; place: string | null }

const scopes = new AsyncLocalStorage<RequestScope>()

/**
 * Runs the request's work inside its scope. The audit of medical data records where each change came from; the
 * change itself is made deep in domain code called from many routes, so the origin travels with the request rather
 * than through every signature on the way.
 */
export function runInRequestScope<T>(scope: RequestScope, work: () => T): T {
	return scopes.run(scope, work)
}

/** The current request's scope; null outside a request (a job, a script, a test calling the domain directly). */
export function requestScope(): RequestScope | null {
	return scopes.getStore() ?? null
}
