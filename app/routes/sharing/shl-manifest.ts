import { openManifest } from '#app/domain/sharing/health-links.server.ts'
import { PASSCODE_ATTEMPTS } from '#app/domain/sharing/options.ts'
import { ManifestRequestSchema } from '#app/domain/sharing/schemas.ts'
import { readText } from '#app/utils/api.server.ts'
import { requestOrigin } from '#app/utils/client-place.server.ts'
import { preflight, viewerJson } from './shl-cors.server.ts'
import type { Route } from './+types/shl-manifest'

const METHODS = 'POST, OPTIONS'
/** recipient, passcode and embeddedLengthMax fit many times over. */
const MAX_BODY_BYTES = 4096

const answer = (body: unknown, status: number) => viewerJson(body, status, METHODS)
const NOT_FOUND = { message: 'This SMART Health Link does not exist, was revoked or has expired.' }

/**
 * POST /shl/:manifestId (HL7 SMART Health Links): a viewer sends `{ recipient, passcode?, embeddedLengthMax? }` and
 * gets the manifest, whose one file is the profile's International Patient Summary encrypted with the link's key.
 * Anyone holding the link may ask; no session is read. The root middleware limits requests per address (strict tier).
 */
async function manifest({ request, params, context }: Route.ActionArgs) {
	if (request.method === 'OPTIONS') return preflight(METHODS)
	if (request.method !== 'POST') return answer({ message: 'Method not allowed' }, 405)
	const type = request.headers.get('content-type') ?? ''
	if (type && !/^application\/([\w.-]+\+)?json\s*(;|$)/i.test(type))
		return answer({ message: 'The request body must be JSON (Content-Type: application/json)' }, 415)
	const text = await readText(request, MAX_BODY_BYTES)
	if (text === null) return answer({ message: 'The request body is too large' }, 413)
	const body = parseObject(text)
	if (!body) return answer({ message: 'The request body must be a JSON object' }, 400)
	const parsed = ManifestRequestSchema.safeParse(body)
	if (!parsed.success) return answer({ message: parsed.error.issues[0]?.message ?? 'Invalid request' }, 400)
	const origin = requestOrigin(request, context)
	const place = [origin.city, origin.region, origin.country].filter(Boolean).join(', ') || null
	const result = await openManifest(params.manifestId, parsed.data, { ipAddress: origin.ipAddress, place })
	switch (result.status) {
		case 'not-found':
			return answer(NOT_FOUND, 404)
		case 'passcode':
			return answer(
				{
					message: `This link needs its passcode. After ${PASSCODE_ATTEMPTS} wrong tries in all it stops working.`,
					remainingAttempts: result.remainingAttempts,
				},
				401,
			)
		case 'ok':
			return answer(result.manifest, 200)
	}
}

function parseObject(text: string): Record<string, unknown> | null {
	try {
		const value: unknown = JSON.parse(text, (_key, v: unknown) => (typeof v === 'string' ? v.replaceAll('\0', '') : v))
		return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null
	} catch {
		return null
	}
}

export const loader = manifest
export const action = manifest
