import { DomainError } from '#app/utils/errors.ts'
import { jsonRefusal, methodNotAllowed } from './api.server.ts'

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const
export type Method = (typeof METHODS)[number]
export type Handlers<Args> = Partial<Record<Method, (args: Args) => unknown>>

const isMethod = (method: string): method is Method => (METHODS as readonly string[]).includes(method)

/**
 * A JSON resource route from one handler per method: `const api = resource<Route.ActionArgs>({ GET, POST })`, then
 * `export const loader = api.loader` and `export const action = api.action` (React Router's build strips those exports
 * from the browser's code by name, and cannot strip a destructuring). HEAD is answered by GET; OPTIONS by a 204 whose
 * Allow header names the methods that have a handler; any other method by a 405 with the same header. The handlers may
 * depend on the request (a collection and its items share a route file). A `DomainError` a handler throws is the one
 * conversion to JSON: its status, `{ message }` and Retry-After; no handler converts its own.
 */
export function resource<Args extends { request: Request }>(handlers: Handlers<Args> | ((args: Args) => Handlers<Args>)) {
	const answer = (args: Args) => {
		const available = typeof handlers === 'function' ? handlers(args) : handlers
		const method = args.request.method === 'HEAD' ? 'GET' : args.request.method
		const handler = isMethod(method) ? available[method] : undefined
		if (handler) return answerRefusals(() => handler(args))
		const allowed = Object.keys(available)
		if (method === 'OPTIONS') return new Response(null, { status: 204, headers: { allow: allowed.join(', ') } })
		return methodNotAllowed(allowed)
	}
	return { loader: answer, action: answer }
}

async function answerRefusals(handle: () => unknown) {
	try {
		return await handle()
	} catch (error) {
		if (error instanceof DomainError) return jsonRefusal(error)
		throw error
	}
}
