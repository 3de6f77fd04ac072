import { scansCsvLines } from '#app/domain/analytics/analytics.server.ts'
import { etDay } from '#app/domain/analytics/et-time.ts'
import { csvResponse } from '#app/utils/csv.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/qr-scan-export'

/** GET /api/qr-scan/export → every scan as CSV, streamed (a file download, with or without JavaScript). */
const api = resource<Route.ActionArgs>({ GET: () => csvResponse(scansCsvLines(), `hmh-qr-scans-${etDay(new Date())}.csv`) })
export const loader = api.loader
export const action = api.action
