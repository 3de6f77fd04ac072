import { emailAnalytics } from '#app/domain/analytics/analytics.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/admin-email-analytics'
import { adminJson } from './admin-orders.server.ts'

/** GET /api/admin/email-analytics → { email: sent/opened/clicked, visits: from e-mail links } (spec 002 §3). */
const api = resource<Route.ActionArgs>({ GET: async () => adminJson(await emailAnalytics()) })
export const loader = api.loader
export const action = api.action
