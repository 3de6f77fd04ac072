import { listQrRequests } from '#app/domain/admin/requests-queue.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/admin-qr-requests'
import { adminJson } from './admin-orders.server.ts'

/** GET /api/admin/qr-requests → { requests }: pending first, each group newest first. */
const api = resource<Route.ActionArgs>({ GET: async () => adminJson({ requests: await listQrRequests({ status: 'all' }) }) })
export const loader = api.loader
export const action = api.action
