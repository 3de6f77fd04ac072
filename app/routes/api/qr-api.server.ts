import { z } from 'zod'
import { IdSchema } from '#app/domain/profiles/schemas.ts'
import { QR_MESSAGES } from '#app/domain/qr/messages.ts'
import { type OwnedCode } from '#app/domain/qr/manage.server.ts'
import { QrCustomizationSchema } from '#app/domain/qr/schemas.ts'
import { jsonError, validationError } from '#app/utils/api.server.ts'

export const CODE_NOT_FOUND = 'QR code not found'

type Code = OwnedCode & { scanCount?: number; lastScanAt?: Date | null }

/** Spec 002 §3's dashboard code; qrData is the URL the code encodes. */
export function apiCode(code: Code) {
	return {
		id: code.id,
		type: code.type,
		token: code.token,
		accessLevel: code.accessLevel,
		qrData: code.scanUrl,
		createdAt: code.createdAt,
		expiresAt: code.expiresAt,
		isActive: code.isActive,
		profile: code.medicalProfileId
			? { id: code.medicalProfileId, fullName: code.profileName, relationshipToUser: code.relationshipToUser }
			: null,
		customization: code.customization,
		...(code.scanCount === undefined ? {} : { scanCount: code.scanCount, lastScanAt: code.lastScanAt ?? null }),
	}
}

/** Spec 001 §2: every code is an emergency code with full access that never expires; omitted fields take those values. */
const fixed = (value: string) => z.literal(value, { error: `Only ${value} is supported` }).default(value)
const CodeRequestSchema = z.object({ type: fixed('emergency'), accessLevel: fixed('full'), expiresIn: fixed('never') })
// Spec 002 §3's preview body says accessLevel basic; a preview writes nothing, so it is accepted there.
const PreviewRequestSchema = CodeRequestSchema.extend({
	accessLevel: z.enum(['full', 'basic'], { error: 'Only full or basic is supported' }).default('full'),
	preview: z.literal(true, { error: 'preview must be true' }).optional(),
})

/**
 * POST /api/qr-codes and /preview bodies. The customisation is spec 002's (width, color, textColor, margin,
 * backgroundColor, circular) or the app's (customText, transparentBackground); unknown fields are dropped. profileId
 * may be left out (spec 001 §7 sends none when generating): the caller decides which profile that means.
 */
export function parseCodeRequest(body: Record<string, unknown>, preview = false) {
	const request = (preview ? PreviewRequestSchema : CodeRequestSchema).safeParse(body)
	if (!request.success) return validationError(request.error.issues)
	const id = body.profileId == null ? undefined : IdSchema.safeParse(body.profileId)
	if (id && !id.success) return jsonError(400, QR_MESSAGES.noProfile, { errors: { profileId: [QR_MESSAGES.noProfile] } })
	const customization = parseCustomization(body.customization ?? {})
	return customization instanceof Response ? customization : { profileId: id?.data, customization }
}

export function parseCustomization(value: unknown) {
	const parsed = QrCustomizationSchema.safeParse(value)
	return parsed.success ? parsed.data : validationError(parsed.error.issues)
}
