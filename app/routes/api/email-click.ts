import { redirect } from 'react-router'
import { recordEmailClick } from '#app/domain/analytics/email-tracking.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/email-click'

const INVALID_LINK = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>This link is not valid – Hit Me Helpers</title>
</head>
<body>
<main>
<h1>This link is not valid</h1>
<p>The link you followed is incomplete or has been changed, so it does not lead anywhere.</p>
<p><a href="/">Go to the home page</a></p>
</main>
</body>
</html>
`

/**
 * GET /e/c/:trackingId?u={target}&s={signature}, a link in an e-mail: records the click and sends the reader on, only
 * to a page of this site that the signature vouches for (never an open redirect).
 */
const api = resource<Route.ActionArgs>({
	GET: async ({ request, params }) => {
		const query = new URL(request.url).searchParams
		const target = await recordEmailClick(params.trackingId, query.get('u'), query.get('s'))
		if (target) return redirect(target, { status: 302, headers: { 'cache-control': 'no-store, private' } })
		return new Response(INVALID_LINK, {
			status: 400,
			headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store, private' },
		})
	},
})

export const loader = api.loader
export const action = api.action
