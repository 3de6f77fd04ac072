import { dashboardGate } from '#app/middleware/dashboard.server.ts'
import { userMiddleware } from '#app/middleware/user.server.ts'
import { call, testAddress } from './factories.ts'

type Handler<A> = (args: A) => unknown

/**
 * A dashboard page's loader or action as the router runs it: the root's user middleware and the dashboard layout's
 * gate first. A redirect or refusal from the gate is the result, as with `call`.
 */
export function callDashboard<A>(handler: Handler<A>, request: Request, params: Record<string, string> = {}, address = testAddress()) {
	return call(
		async (args: A) => {
			let result: unknown
			const middlewareArgs = args as never
			await userMiddleware(middlewareArgs, () =>
				Promise.resolve(
					dashboardGate(middlewareArgs, async () => {
						result = await handler(args)
						return new Response()
					}),
				).then(() => new Response()),
			)
			return result
		},
		request,
		params,
		address,
	)
}
