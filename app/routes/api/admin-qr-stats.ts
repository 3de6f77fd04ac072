import { qrStats } from '#app/domain/admin/stats.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/admin-qr-stats'
import { adminJson } from './admin-orders.server.ts'

/** GET /api/admin/qr-stats → { total, unclaimed, claimed, pendingRequests }. */
const api = resource<Route.ActionArgs>({ GET: async () => adminJson(await qrStats()) })
export const loader = api.loader
export const action = api.action
