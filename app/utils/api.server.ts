import { data } from 'react-router'
import type { RequestArgs } from './request.server.ts'
import type { z } from 'zod'
import { getSession } from './session.server.ts'
import { readForm } from './form-body.server.ts'

/** The body of a JSON endpoint: JSON, or form fields from a plain HTML form. Bad JSON is a 400, never a 500. */
export async function readBody(request: Request): Promise<Record<string, unknown>> {
	const type = request.headers.get('content-type') ?? ''
	if (type.includes('application/x-www-form-urlencoded') || type.includes('multipart/form-data')) {
		// Size-limited, and a malformed form is a 400 like bad JSON.
		const form = await readForm(request)
		if (!form.ok) throw jsonError(form.status, form.status === 413 ? form.message : 'The request body could not be read')
		return Object.fromEntries(form.formData)
	}
	if (type && !/^application\/([\w.-]+\+)?json\s*(;|$)/i.test(type))
		throw jsonError(415, 'The request body must be JSON (Content-Type: application/json)')
	const text = await readText(request, MAX_JSON_BYTES)
	if (text === null) throw jsonError(413, 'The request body is too large')
	if (!text.trim()) return {}
	try {
		// PostgreSQL text cannot hold a NUL character: drop it from every string.
		const value: unknown = JSON.parse(text, (_key, v: unknown) => (typeof v === 'string' ? v.replaceAll('\0', '') : v))
		if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>
	} catch {
		// fall through
	}
	throw Response.json({ message: 'The request body must be a JSON object' }, { status: 400 })
}

export const MAX_JSON_BYTES = 1024 * 1024

/** The body as text, or null as soon as it grows past the limit (the rest is left unread). */
export async function readText(request: Request, limit: number) {
	if (Number(request.headers.get('content-length')) > limit) return null
	if (!request.body) return ''
	const reader = request.body.getReader()
	const chunks: Uint8Array[] = []
	let size = 0
	try {
		for (;;) {
			const { done, value } = await reader.read()
			if (done) break
			size += value.byteLength
			if (size > limit) {
				await reader.cancel().catch(() => undefined)
				return null
			}
			chunks.push(value)
		}
	} catch {
		throw jsonError(400, 'The request body could not be read')
	}
	return Buffer.concat(chunks).toString('utf8')
}

export function jsonError(status: number, message: string, extra?: Record<string, unknown>) {
	return Response.json({ message, ...extra }, { status })
}

/**
 * A refused domain operation as JSON: its status and message, and Retry-After when it says when to ask again. A refusal
 * of what the sender sent in one field (a 400, or a 413 file) names that field as a schema's refusal does:
 * `{ message, errors: { field: [message] } }`; a conflict, a limit or a busy server says only its message.
 */
export function jsonRefusal(refusal: { status: number; message: string; field?: string; retryAfterSeconds?: number }) {
	const headers: HeadersInit = refusal.retryAfterSeconds ? { 'retry-after': String(refusal.retryAfterSeconds) } : {}
	const byField = refusal.field && (refusal.status === 400 || refusal.status === 413)
	const body = byField ? { message: refusal.message, errors: { [refusal.field!]: [refusal.message] } } : { message: refusal.message }
	return Response.json(body, { status: refusal.status, headers })
}

/** 400 with the schema's messages by field: `{ message, errors: { field: [messages] } }`. */
export function validationError(issues: z.core.$ZodIssue[]) {
	const errors: Record<string, string[]> = {}
	for (const issue of issues) (errors[String(issue.path[0] ?? 'form')] ??= []).push(issue.message)
	return jsonError(400, issues[0]?.message ?? 'Invalid input', { errors })
}

/** For JSON endpoints: 401 JSON instead of a redirect to sign-in. */
export async function requireApiUserId(args: RequestArgs) {
	const userId = (await getSession(args)).get('userId')
	if (!userId) throw jsonError(401, 'Unauthorized')
	return userId
}

export function methodNotAllowed(allowed: string[]) {
	return data({ message: 'Method not allowed' }, { status: 405, headers: { allow: allowed.join(', ') } })
}
