import type { MiddlewareFunction } from 'react-router'
import { requestOrigin } from '#app/utils/client-place.server.ts'
import { runInRequestScope } from '#app/utils/request-scope.server.ts'

/** Every loader and action runs knowing where its request came from (the audit of medical data records it). */
export const requestScopeMiddleware: MiddlewareFunction<Response> = ({ request, context }, next) => {
	const origin = requestOrigin(request, context)
	const place = [origin.city, origin.region, origin.country].filter(Boolean).join(', ') || null
	return runInRequestScope({ ipAddress: origin.ipAddress, place }, next)
}
