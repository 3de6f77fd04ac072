import { consentRecords } from '#app/domain/admin/consent-records.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/admin-consent-records'
import { adminJson } from './admin-orders.server.ts'

/** GET /api/admin/consent-records → { records, texts, stats }. */
const api = resource<Route.ActionArgs>({ GET: async () => adminJson(await consentRecords()) })
export const loader = api.loader
export const action = api.action
