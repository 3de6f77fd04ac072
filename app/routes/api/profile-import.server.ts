import type { RequestArgs } from '#app/utils/request.server.ts'
import { applyImport, previewImport, type SummarySource } from '#app/domain/sharing/ips-import.server.ts'
import { parseSummaryJson, SUMMARY_MAX_BYTES, SUMMARY_MESSAGES } from '#app/domain/sharing/ips-read.ts'
import { ImportRequestSchema, type ImportRequest } from '#app/domain/sharing/schemas.ts'
import { jsonError, readText, validationError } from '#app/utils/api.server.ts'
import { requestOrigin } from '#app/utils/client-place.server.ts'
import { json, pathId, profileApi } from './profile-api.server.ts'

/** The summary (1 MB at most) and room for the rest of the body: the link, the passcode, the ids chosen. */
const BODY_MAX_BYTES = SUMMARY_MAX_BYTES + 64 * 1024

type Args = RequestArgs & { params: { id?: string } }

/**
 * The body of an import call: JSON only, its size capped before it is parsed, its nesting and keys checked as a
 * summary's are (a refusal names `bundle`), then its fields by schema.
 */
async function readImport(request: Request): Promise<ImportRequest | Response> {
	const type = request.headers.get('content-type') ?? ''
	if (!/^application\/([\w.-]+\+)?json\s*(;|$)/i.test(type))
		return jsonError(415, 'The request body must be JSON (Content-Type: application/json)')
	const text = await readText(request, BODY_MAX_BYTES)
	if (text === null) return jsonError(413, SUMMARY_MESSAGES.tooLarge, { errors: { bundle: [SUMMARY_MESSAGES.tooLarge] } })
	const value = parseSummaryJson(text, 'bundle', BODY_MAX_BYTES)
	if (!value || typeof value !== 'object' || Array.isArray(value)) return jsonError(400, 'The request body must be a JSON object')
	const parsed = ImportRequestSchema.safeParse(value)
	return parsed.success ? parsed.data : validationError(parsed.error.issues)
}

/** The Bundle, or the link with its passcode: one of the two. */
function sourceOf(body: ImportRequest): SummarySource | Response {
	const hasBundle = body.bundle !== undefined && body.bundle !== null
	const hasLink = body.shlink !== undefined && body.shlink.trim() !== ''
	if (hasBundle === hasLink) {
		const message = hasBundle
			? 'Send either bundle or shlink, not both'
			: 'bundle (a FHIR Bundle) or shlink (a SMART Health Link) is required'
		return jsonError(400, message, { errors: { bundle: [message] } })
	}
	return hasBundle ? { bundle: body.bundle } : { shlink: body.shlink!, ...(body.passcode ? { passcode: body.passcode } : {}) }
}

function importCall(args: Args, run: (userId: string, profileId: number, source: SummarySource, body: ImportRequest) => Promise<Response>) {
	return profileApi(args, async (userId) => {
		const profileId = pathId(args.params.id, 'Profile not found')
		const body = await readImport(args.request)
		if (body instanceof Response) return body
		const source = sourceOf(body)
		if (source instanceof Response) return source
		return run(userId, profileId, source, body)
	})
}

const readerOf = ({ request, context }: RequestArgs) => {
	const origin = requestOrigin(request, context)
	return { ipAddress: origin.ipAddress, place: [origin.city, origin.region, origin.country].filter(Boolean).join(', ') || null }
}

/** POST /api/medical-profiles/{id}/import: what the summary would add, item by item, beside what the profile holds. */
export const proposeImportCall = (args: Args) =>
	importCall(args, async (userId, profileId, source) => json((await previewImport(userId, profileId, source, readerOf(args))).proposal))

/** POST /api/medical-profiles/{id}/import/confirm: the same summary read again, and the items named in `accept` added. */
export const confirmImportCall = (args: Args) =>
	importCall(args, async (userId, profileId, source, body) =>
		json({ added: await applyImport(userId, profileId, source, body.accept ?? [], readerOf(args)) }),
	)
