import { data, type MiddlewareFunction } from 'react-router'
import { OUTAGE_MESSAGE, OUTAGE_RETRY_SECONDS, type DatabaseOutage, type KeptField, type KeptForm } from '#app/utils/database-outage.ts'
import { databaseOutageContext, isDatabaseUnavailable } from '#app/utils/database-outage.server.ts'
import { messagePage } from '#app/utils/message-page.server.ts'
import { setSecurityHeaders } from './security.server.ts'

/*
 * Root middleware, first of all: a request the database failed (the database restarting, failing over, unreachable)
 * is answered 503 with Retry-After instead of the generic 500. Pages render the error screen with what a form without
 * JavaScript had sent (so it can be sent again), data requests hand the browser the same 503 (the page and its form stay,
 * see network-failure.ts), and resource routes answer JSON under /api and a small page that retries by itself elsewhere.
 *
 * Two functions: the inner one turns the failure into the 503 (a thrown data() is rendered by the root ErrorBoundary);
 * the outer one adds the headers, which a thrown data() cannot carry into the rendered page.
 */

/** Forms larger than this (a file upload) are not kept: the screen then offers to load the page again. */
const KEPT_FORM_BYTES = 64 * 1024
const KEPT_FIELDS = 100

/** Fields never written back into a page. */
const SECRET = /pass(word|code|phrase)|secret|token|otp|recovery|cvc|cvv|card.?number|^code$/i
/** What a form carries for the app rather than what the person typed (ids included): sent again as it was, not shown. */
const INTERNAL = /^(_.*|intent|redirectTo|returnTo|checkoutKey|key|id)$|Ids?$/

export const outageHeadersMiddleware: MiddlewareFunction<Response> = async ({ context }, next) => {
	const state = { unavailable: false }
	context.set(databaseOutageContext, state)
	const response = await next()
	if (response.status === 503 && state.unavailable) {
		setSecurityHeaders(response.headers)
		response.headers.set('retry-after', String(OUTAGE_RETRY_SECONDS))
		response.headers.set('cache-control', 'no-store')
	}
	return response
}

export const databaseOutageMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
	const state = context.get(databaseOutageContext)!
	const copy = keepsForm(request) ? request.clone() : null
	let response: Response | null = null
	try {
		response = await next()
	} catch (error) {
		// A resource route's middleware error comes through here; page errors are rendered (and reported to handleError).
		if (!isDatabaseUnavailable(error)) throw error
		state.unavailable = true
	}
	if (response && (response.status < 500 || !state.unavailable)) return response
	const url = new URL(request.url)
	const isPage = response?.headers.get('content-type')?.startsWith('text/html') || url.pathname.endsWith('.data')
	if (isPage) {
		const form = copy ? await keptForm(copy, url) : null
		throw data<DatabaseOutage>({ databaseOutage: true, message: OUTAGE_MESSAGE, form }, { status: 503, statusText: 'Service Unavailable' })
	}
	return resourceOutage(request, url)
}

function keepsForm(request: Request) {
	// With JavaScript (a .data request) the page keeps its own form.
	if (request.method !== 'POST' || !request.body || new URL(request.url).pathname.endsWith('.data')) return false
	const type = request.headers.get('content-type') ?? ''
	const length = Number(request.headers.get('content-length'))
	return (
		(type.startsWith('application/x-www-form-urlencoded') || type.startsWith('multipart/form-data')) &&
		length > 0 &&
		length <= KEPT_FORM_BYTES
	)
}

/** What was typed, for the error screen. Passwords and the like are not written back: the person types them again. */
async function keptForm(copy: Request, url: URL): Promise<KeptForm | null> {
	const formData = await copy.formData().catch(() => null)
	if (!formData) return null
	const fields: KeptField[] = []
	const files: string[] = []
	for (const [name, value] of formData) {
		if (typeof value !== 'string') {
			if (value.size > 0 && !files.includes(name)) files.push(name)
			continue
		}
		if (fields.length >= KEPT_FIELDS) break
		const kind = SECRET.test(name) ? 'secret' : INTERNAL.test(name) || value === '' ? 'hidden' : 'shown'
		fields.push({ name, value: kind === 'secret' ? '' : value, kind })
	}
	const multipart = (copy.headers.get('content-type') ?? '').startsWith('multipart/form-data')
	return {
		action: url.pathname + url.search,
		enctype: multipart ? 'multipart/form-data' : 'application/x-www-form-urlencoded',
		fields,
		files,
	}
}

/**
 * JSON under /api (and for callers asking for JSON); a SMART Health Link viewer on another site gets JSON it may read
 * (CORS); elsewhere a page of its own that a GET reloads by itself.
 */
function resourceOutage(request: Request, url: URL) {
	if (url.pathname.startsWith('/shl/'))
		return Response.json(
			{ message: OUTAGE_MESSAGE },
			{ status: 503, headers: { 'access-control-allow-origin': '*', 'cache-control': 'no-store' } },
		)
	const wantsJson = url.pathname.startsWith('/api/') || /application\/json/.test(request.headers.get('accept') ?? '')
	if (wantsJson) return Response.json({ message: OUTAGE_MESSAGE }, { status: 503 })
	const retry = request.method === 'GET' ? `<meta http-equiv="refresh" content="${OUTAGE_RETRY_SECONDS}">` : ''
	const again = request.method === 'GET' ? 'This page tries again by itself in a few seconds.' : 'Please go back and send it again.'
	return messagePage({ status: 503, title: 'Temporarily unavailable', paragraphs: [OUTAGE_MESSAGE, again], head: retry })
}
