// A SMART Health Link is opened by viewers on other sites: their answers may be read from any origin. Nothing here
// reads a cookie or answers with one, so there is nothing for another site to borrow.

export function corsHeaders(methods: string) {
	return {
		'access-control-allow-origin': '*',
		'access-control-allow-methods': methods,
		'access-control-allow-headers': 'content-type',
		'access-control-max-age': '86400',
	}
}

/** JSON for a viewer: never stored by a cache, readable from any origin. */
export function viewerJson(body: unknown, status: number, methods: string, headers: Record<string, string> = {}) {
	return Response.json(body, {
		status,
		headers: { 'access-control-allow-origin': '*', 'cache-control': 'no-store', ...headers, ...(status === 405 && { allow: methods }) },
	})
}

/** The preflight a browser sends before a viewer's POST with a JSON body. */
export function preflight(methods: string) {
	return new Response(null, { status: 204, headers: { ...corsHeaders(methods), allow: methods } })
}
