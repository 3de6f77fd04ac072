// First: the process's lifecycle, whose first import refuses a configuration that may not start.
export { lifecycle } from '../server/lifecycle.ts'
import { PassThrough } from 'node:stream'
import { createReadableStreamFromReadable } from '@react-router/node'
import { isbot } from 'isbot'
import { renderToPipeableStream, type RenderToPipeableStreamOptions } from 'react-dom/server'
import { isRouteErrorResponse, ServerRouter, type EntryContext, type HandleErrorFunction, type ServerInstrumentation } from 'react-router'
import { appCss } from './styles/inline.server.ts'
import { PageStylesProvider } from './styles/page-styles.tsx'
import { contentSecurityPolicy, createNonce } from './utils/csp.server.ts'
import { noteDatabaseError } from './utils/database-outage.server.ts'
import { lowPriorityModulePreloads } from './utils/module-preloads.server.ts'
import { NonceProvider } from './utils/nonce-provider.ts'
import { log, logScope } from './utils/log.server.ts'

export const streamTimeout = 5_000

export default function handleRequest(request: Request, responseStatusCode: number, responseHeaders: Headers, routerContext: EntryContext) {
	const nonce = createNonce()
	responseHeaders.set('content-security-policy', contentSecurityPolicy(nonce))
	responseHeaders.set('content-type', 'text/html; charset=utf-8')
	if (request.method.toUpperCase() === 'HEAD') {
		return new Response(null, { status: responseStatusCode, headers: responseHeaders })
	}
	return new Promise<Response>((resolve, reject) => {
		let shellRendered = false
		const userAgent = request.headers.get('user-agent')
		const readyOption: keyof RenderToPipeableStreamOptions =
			(userAgent && isbot(userAgent)) || routerContext.isSpaMode ? 'onAllReady' : 'onShellReady'
		let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000)
		const { pipe, abort } = renderToPipeableStream(
			<NonceProvider value={nonce}>
				<PageStylesProvider value={import.meta.env.PROD ? appCss : null}>
					<ServerRouter context={routerContext} url={request.url} nonce={nonce} />
				</PageStylesProvider>
			</NonceProvider>,
			{
				nonce,
				// A finished Suspense boundary past the first 12.8 KB would otherwise be sent apart and shown by a script:
				// pages must be whole without JavaScript, so boundaries are written in place once ready.
				progressiveChunkSize: Number.POSITIVE_INFINITY,
				[readyOption]() {
					shellRendered = true
					const body = new PassThrough({
						final(callback) {
							clearTimeout(timeoutId)
							timeoutId = undefined
							callback()
						},
					})
					pipe(lowPriorityModulePreloads()).pipe(body)
					resolve(
						new Response(createReadableStreamFromReadable(body), {
							headers: responseHeaders,
							status: responseStatusCode,
						}),
					)
				},
				onShellError(error: unknown) {
					reject(error)
				},
				onError(error: unknown) {
					responseStatusCode = 500
					if (shellRendered) log.error({ err: error }, 'page failed while streaming')
				},
			},
		)
	})
}

export const handleError: HandleErrorFunction = (error, { request, context }) => {
	// Answers the app chose (a 404, a 405, a refused form) are not faults; a client that left is not either.
	if (request.signal.aborted || isRouteErrorResponse(error)) return
	// A database that does not answer: the request is answered 503 (root middleware) and logged as one line.
	if (noteDatabaseError(error, context)) return
	// React Router refuses a form posted from another site before any route runs (400): a refusal, not a fault.
	if (error instanceof Error && error.message.endsWith('Aborting the action.')) {
		log.info({ method: request.method }, 'cross-origin form post refused')
		return
	}
	log.error({ err: error }, 'request failed')
}

/** Every log line of a request names its route pattern (/scan/:token), never its path or query: known once matched. */
const noteRoute = async (handler: () => Promise<unknown>, { pattern }: { pattern: string }) => {
	const scope = logScope()
	if (scope) scope.route = pattern.startsWith('/') ? pattern : `/${pattern}`
	await handler()
}
export const instrumentations: ServerInstrumentation[] = [
	{ route: (route) => route.instrument({ middleware: noteRoute, loader: noteRoute, action: noteRoute }) },
]
