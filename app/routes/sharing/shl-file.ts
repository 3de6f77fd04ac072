import { manifestFile } from '#app/domain/sharing/health-links.server.ts'
import { preflight, viewerJson } from './shl-cors.server.ts'
import type { Route } from './+types/shl-file'

const METHODS = 'GET, OPTIONS'

/**
 * GET /shl/:manifestId/file?token=: the encrypted summary a manifest pointed at by address (a viewer that asked for
 * nothing larger than embeddedLengthMax embedded). The address is signed and works for a few minutes.
 */
async function file({ request, params }: Route.ActionArgs) {
	if (request.method === 'OPTIONS') return preflight(METHODS)
	if (request.method !== 'GET' && request.method !== 'HEAD') return viewerJson({ message: 'Method not allowed' }, 405, METHODS)
	const jwe = await manifestFile(params.manifestId, new URL(request.url).searchParams.get('token'))
	if (jwe === null) return viewerJson({ message: 'This file address does not exist or has expired.' }, 404, METHODS)
	return new Response(jwe, {
		headers: { 'content-type': 'application/jose', 'access-control-allow-origin': '*', 'cache-control': 'no-store' },
	})
}

export const loader = file
export const action = file
