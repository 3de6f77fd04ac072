import { methodNotAllowed } from './api.server.ts'

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
export type Handlers<Args> = Partial<Record<Method, (args: Args) => unknown>>

/**
 * A JSON resource route from one handler per method: `const api = resource({ GET, POST })`, then
 * `export const loader = api.loader` and `export const action = api.action` (React Router's build strips those exports
 * from the browser's code by name, and cannot strip a destructuring). HEAD is answered by GET; any other method without a handler gets 405 with an Allow header naming those that have
 * one. The handlers may depend on the request (a collection and its items share a route file).
 */
export function resource<Args extends { request: Request }>(handlers: Handlers<Args> | ((args: Args) => Handlers<Args>)) {
	const answer = (args: Args) => {
		const available = typeof handlers === 'function' ? handlers(args) : handlers
		const method = args.request.method === 'HEAD' ? 'GET' : args.request.method
		const handler = available[method as Method]
		return handler ? handler(args) : methodNotAllowed(Object.keys(available))
	}
	return { loader: answer, action: answer }
}
