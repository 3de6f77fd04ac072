import { redirect } from 'react-router'
import { recordEmailClick } from '#app/domain/analytics/email-tracking.server.ts'
import { messagePage } from '#app/utils/message-page.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/email-click'

/**
 * GET /e/c/:trackingId?u={target}&s={signature}, a link in an e-mail: records the click and sends the reader on, only
 * to a page of this site that the signature vouches for (never an open redirect).
 */
const api = resource<Route.ActionArgs>({
	GET: async ({ request, params }) => {
		const query = new URL(request.url).searchParams
		const target = await recordEmailClick(params.trackingId, query.get('u'), query.get('s'))
		if (target) return redirect(target, { status: 302, headers: { 'cache-control': 'no-store, private' } })
		return messagePage({
			status: 400,
			title: 'This link is not valid',
			paragraphs: ['The link you followed is incomplete or has been changed, so it does not lead anywhere.'],
			link: { href: '/', label: 'Go to the home page' },
		})
	},
})

export const loader = api.loader
export const action = api.action
