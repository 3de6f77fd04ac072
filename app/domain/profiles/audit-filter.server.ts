import { z } from 'zod'
import { isDayString } from '#app/domain/analytics/et-time.ts'
import { AUDIT_KINDS } from './audit-labels.ts'

const optionalText = (max: number) =>
	z
		.string()
		.trim()
		.max(max, `Please use at most ${max} characters`)
		.optional()
		.transform((v) => v || undefined)
const optionalDay = z
	.string()
	.optional()
	.transform((v) => v || undefined)
	.refine((v) => v === undefined || isDayString(v), 'Please enter a date')

/** The admin area's filters (a GET form); each one wrong gets its message beside it, and the rest still apply. */
export const AuditFilterSchema = z.object({
	kind: z.enum(AUDIT_KINDS).optional().catch(undefined),
	role: z.enum(['owner', 'responder', 'link_preview']).optional().catch(undefined),
	email: optionalText(254).pipe(z.email('Please enter a valid email address').optional()),
	profileId: z
		.string()
		.optional()
		.transform((v) => v || undefined)
		.refine((v) => v === undefined || /^\d{1,9}$/.test(v), 'Please enter a profile number')
		.transform((v) => (v ? Number(v) : undefined)),
	from: optionalDay,
	to: optionalDay,
	before: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional().catch(undefined),
})

const FILTER_FIELDS = ['kind', 'role', 'email', 'profileId', 'from', 'to', 'before'] as const

/** The filters as asked; a field that is wrong gets its message and is left out, the others still apply. */
export function parseAuditFilter(params: URLSearchParams) {
	const asked = Object.fromEntries(FILTER_FIELDS.map((field) => [field, params.get(field)?.slice(0, 300) || undefined]))
	const errors: Record<string, string[]> = {}
	const first = AuditFilterSchema.safeParse(asked)
	if (first.success) return { filter: first.data, errors, asked }
	const rest = { ...asked }
	for (const issue of first.error.issues) {
		const field = String(issue.path[0])
		;(errors[field] ??= []).push(issue.message)
		delete rest[field]
	}
	return { filter: AuditFilterSchema.parse(rest), errors, asked }
}
