import { recordConsent } from '#app/domain/consent/consent.server.ts'
import { clientInfo } from '#app/middleware/consent.server.ts'
import { ConsentRecordSchema } from '#app/domain/consent/schemas.ts'
import { readBody, requireApiUserId, validationError } from '#app/utils/api.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/consent'

/** Spec 002 §7: one call per form, { consentType, agreed: true }; records the form's current version. */
const api = resource<Route.ActionArgs>({
	POST: async ({ request, context }) => {
		const userId = await requireApiUserId({ request, context })
		const parsed = ConsentRecordSchema.safeParse(await readBody(request))
		if (!parsed.success) return validationError(parsed.error.issues)
		const recorded = await recordConsent(userId, parsed.data.consentType, clientInfo(request, context))
		return Response.json({
			success: true,
			consentType: recorded.consentType,
			version: recorded.version,
			agreed: true,
			createdAt: recorded.createdAt,
		})
	},
})

export const loader = api.loader
export const action = api.action
