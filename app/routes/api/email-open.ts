import { recordEmailOpen, TRACKING_ID } from '#app/domain/analytics/email-tracking.server.ts'
import { getClientIp } from '#app/utils/request.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/email-open'
import { log } from '#app/utils/log.server.ts'

/** A transparent 1×1 GIF (43 bytes). */
const PIXEL = Uint8Array.from(Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64'))

/**
 * GET /e/o/:trackingId, the open pixel at the end of every HTML e-mail. Always the image, whatever the id: a mail
 * client shows no broken picture, and nobody learns from the answer which ids exist.
 */
const api = resource<Route.ActionArgs>({
	GET: async ({ request, params, context }) => {
		if (TRACKING_ID.test(params.trackingId)) {
			try {
				await recordEmailOpen(params.trackingId, {
					userAgent: request.headers.get('user-agent'),
					address: getClientIp(request, context),
				})
			} catch (error) {
				log.error({ err: error }, 'e-mail open not recorded')
			}
		}
		return new Response(PIXEL, {
			headers: { 'content-type': 'image/gif', 'content-length': String(PIXEL.byteLength), 'cache-control': 'no-store, private' },
		})
	},
})

export const loader = api.loader
export const action = api.action
