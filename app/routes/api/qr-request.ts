import { qrRequestJson, submitQrRequest } from '#app/domain/requests/requests.server.ts'
import { QrRequestApiSchema, REQUEST_FAILED, REQUEST_RECEIVED } from '#app/domain/requests/schemas.ts'
import { jsonError, readBody, validationError } from '#app/utils/api.server.ts'
import { getUser } from '#app/middleware/user.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/qr-request'
import { log } from '#app/utils/log.server.ts'

/** POST /api/qr-request (spec 002 §7); guests may request. The e-mail defaults to the signed-in user's. */
const api = resource<Route.ActionArgs>({
	POST: async ({ request, context }) => {
		const [body, user] = await Promise.all([readBody(request), getUser({ request, context })])
		const parsed = QrRequestApiSchema.safeParse({ ...body, email: body.email ?? user?.email })
		// Nested fields are reported by their full path, e.g. shippingAddress.city.
		if (!parsed.success) return validationError(parsed.error.issues.map((issue) => ({ ...issue, path: [issue.path.join('.')] })))
		try {
			const { request: row } = await submitQrRequest(parsed.data, user?.id ?? null)
			return Response.json({ message: REQUEST_RECEIVED, request: row && qrRequestJson(row) }, { status: 201 })
		} catch (error) {
			log.error({ err: error }, 'free code request not stored')
			return jsonError(503, REQUEST_FAILED)
		}
	},
})

export const loader = api.loader
export const action = api.action
