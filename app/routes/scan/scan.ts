import { pickLanguage } from '#app/domain/responder/labels.ts'
import { renderMessagePage, renderResponderPage } from '#app/domain/responder/page.ts'
import { responderPageHeaders } from './responder-headers.server.ts'
import { loadResponderView, recordScan } from '#app/domain/responder/responder.server.ts'
import { getUserId } from '#app/middleware/user.server.ts'
import { env } from '#app/utils/env.server.ts'
import { hasSessionCookie } from '#app/utils/session.server.ts'
import { getClientIp, viaTrustedProxy } from '#app/utils/request.server.ts'
import type { Route } from './+types/scan'

/** A resource route: no root loader, no client bundle; the page is a few KB of HTML with inline CSS. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
	const url = new URL(request.url)
	const lang = pickLanguage(request.headers.get('accept-language'), url.searchParams.get('lang'))
	const view = await loadResponderView(params.token)
	const headers = responderPageHeaders(lang, view.state === 'active' && view.profile.helpingAlerts)
	if (view.state === 'unknown') return new Response(renderMessagePage(lang, 'notFound', env.PUBLIC_URL), { status: 404, headers })
	const viewerId = view.state === 'active' && hasSessionCookie(request) ? await getUserId({ request, context }) : null
	await recordScan(
		view.codeId,
		{
			viewerIsOwner: view.state === 'active' && viewerId === view.ownerId,
			viewerId,
			userAgent: request.headers.get('user-agent'),
			address: getClientIp(request, context),
			trustedHeaders: viaTrustedProxy(context) ? request.headers : null,
		},
		view.state === 'active' ? { profileId: view.profile.id, ownerId: view.ownerId, codeName: view.codeName } : null,
	)
	if (view.state !== 'active') return new Response(renderMessagePage(lang, view.state, env.PUBLIC_URL), { headers })
	return new Response(renderResponderPage(view.profile, lang, params.token), { headers })
}
