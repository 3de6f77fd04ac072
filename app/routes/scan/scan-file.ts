import { data } from 'react-router'
import { storage } from '#app/adapters/storage.server.ts'
import { responderFileKey } from '#app/domain/responder/responder.server.ts'
import { getUserId } from '#app/middleware/user.server.ts'
import { getClientIp, viaTrustedProxy } from '#app/utils/request.server.ts'
import { hasSessionCookie } from '#app/utils/session.server.ts'
import type { Route } from './+types/scan-file'

/** The DNR document and photo linked from the responder page, under exactly the page's own rule. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
	const kind = params.kind === 'dnr' || params.kind === 'photo' ? params.kind : null
	const visit = kind && {
		viewerId: hasSessionCookie(request) ? await getUserId({ request, context }) : null,
		userAgent: request.headers.get('user-agent'),
		address: getClientIp(request, context),
		trustedHeaders: viaTrustedProxy(context) ? request.headers : null,
	}
	const key = kind && visit ? await responderFileKey(params.token, kind, visit) : null
	const file = key ? await storage.get(key) : null
	if (!file) throw data('Not found', { status: 404 })
	return new Response(file.body as Uint8Array<ArrayBuffer>, {
		headers: {
			'content-type': file.contentType,
			'content-length': String(file.size),
			'content-disposition': file.contentType.startsWith('image/') || file.contentType === 'application/pdf' ? 'inline' : 'attachment',
			'cache-control': 'no-store',
			'x-robots-tag': 'noindex, nofollow',
			'content-security-policy': "sandbox; default-src 'none'; img-src 'self'; style-src 'unsafe-inline'",
		},
	})
}
