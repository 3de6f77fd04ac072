import type { MiddlewareFunction } from 'react-router'
import { pageUrl } from '#app/utils/http.ts'
import { requireConsents } from './consent.server.ts'
import { requireDashboardUser } from './permissions.server.ts'
import { getUserId } from './user.server.ts'

/**
 * Every dashboard page, its loaders and its actions alike: signed out is sent to /auth ('Authentication Required'), a
 * pending PIN is claimed first, and unsigned consent forms come before anything else. Signed out, / is the landing page.
 */
export const dashboardGate: MiddlewareFunction<Response> = async (args, next) => {
	if (pageUrl(args.request).pathname === '/' && !(await getUserId(args))) return next()
	const user = await requireDashboardUser(args)
	await requireConsents(args.request, user.id)
	return next()
}
