import { checkHealth } from '#app/domain/housekeeping/health.server.ts'
import type { Route } from './+types/healthz'

/** GET /healthz: 200 when the database and the file storage answer, else 503 (for load balancers and monitors). */
export async function loader(_args: Route.LoaderArgs) {
	const health = await checkHealth()
	const ok = health.status === 'ok'
	return Response.json(health, {
		status: ok ? 200 : 503,
		headers: { 'cache-control': 'no-store', ...(ok ? {} : { 'retry-after': '5' }) },
	})
}
