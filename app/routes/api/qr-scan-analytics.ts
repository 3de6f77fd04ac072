import { scanAnalytics } from '#app/domain/analytics/analytics.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/qr-scan-analytics'
import { adminJson } from './admin-orders.server.ts'

/** GET /api/qr-scan/analytics → every scan by scanner and device, and the newest 10 (spec 002 §3 "QR scan analytics"). */
const api = resource<Route.ActionArgs>({ GET: async () => adminJson(await scanAnalytics()) })
export const loader = api.loader
export const action = api.action
