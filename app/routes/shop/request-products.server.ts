import { parseWithZod } from '@conform-to/zod/v4'
import { readPageForm } from '#app/utils/request.server.ts'
import { DomainError } from '#app/utils/errors.ts'
import { replyError } from '#app/utils/reply-error.server.ts'
import { type RouterContextProvider } from 'react-router'
import { z } from 'zod'
import { listProfiles } from '#app/domain/profiles/profiles.server.ts'
import { IdSchema } from '#app/domain/profiles/schemas.ts'
import { profileLabel } from '#app/domain/profiles/schemas.ts'
import { listCodes } from '#app/domain/qr/manage.server.ts'
import { DEFAULT_QR_COLOR, QR_COLORS } from '#app/domain/qr/palette.ts'
import { renderQrSvg } from '#app/domain/qr/render.server.ts'
import { listProducts } from '#app/domain/shop/cart.server.ts'
import { addItemToCart } from '../../features/cart/cart-session.server.ts'
import { SIZE_REQUIRED } from '#app/domain/shop/cart.ts'
import { ORDER_MESSAGES, QrCodeUrlSchema, REQUEST_PAGE, REQUEST_PRODUCT_MESSAGES } from '#app/domain/shop/schemas.ts'
import { requireUserId } from '#app/middleware/permissions.server.ts'
import { pageUrl } from '#app/utils/http.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import type { RequestArgs } from '#app/utils/request.server.ts'

const HEXES = QR_COLORS.map((c) => c.hex) as [string, ...string[]]
const ColorSchema = z
	.string()
	.trim()
	.toUpperCase()
	.pipe(z.enum(HEXES, { error: 'Please choose a colour from the palette' }))

/**
 * Spec 002 'Request products': the person's profiles, each with the scan URL of its emergency code (the default QR
 * URL, spec 002 §9), the URL and colour being chosen, and their preview.
 */
export async function requestProductsLoader({ request, context }: RequestArgs) {
	const userId = await requireUserId({ request, context })
	const params = pageUrl(request).searchParams
	const [profiles, codes, products] = await Promise.all([listProfiles(userId), listCodes(userId), listProducts('request')])
	const withUrls = profiles.map((p) => {
		const code =
			codes.find((c) => c.medicalProfileId === p.id && c.type === 'emergency' && c.isActive) ??
			codes.find((c) => c.medicalProfileId === p.id)
		return { id: p.id, label: profileLabel(p), qrCodeUrl: code?.scanUrl ?? '' }
	})
	const profile = withUrls.find((p) => p.id === Number(params.get('profileId'))) ?? withUrls[0] ?? null
	const fallbackUrl = profile?.qrCodeUrl || codes[0]?.scanUrl || ''
	const qrCodeUrl = params.has('useProfile') || !params.has('qrCodeUrl') ? fallbackUrl : params.get('qrCodeUrl')!
	const color = ColorSchema.safeParse(params.get('color') ?? DEFAULT_QR_COLOR).data ?? DEFAULT_QR_COLOR
	return {
		profiles: withUrls,
		profileId: profile?.id ?? null,
		qrCodeUrl,
		color,
		...requestPreview(qrCodeUrl, color),
		products: products.map((p) => ({
			id: p.id,
			name: p.name,
			description: p.description,
			sizes: p.sizes,
			supportsSticker: p.supportsSticker,
			engraved: p.engraved,
		})),
	}
}
export type RequestProductsData = Awaited<ReturnType<typeof requestProductsLoader>>

export function requestPreview(qrCodeUrl: string, color: string) {
	const url = QrCodeUrlSchema.safeParse(qrCodeUrl)
	if (!url.success) return { previewSvg: null, previewError: url.error.issues[0]!.message }
	return { previewSvg: renderQrSvg({ data: url.data, color, circular: true, width: 240 }), previewError: null }
}

/**
 * One product's Add to Cart. Its size and sticker choice are named after it (`size-3`, `addSticker-3`: each product's
 * card has its own), read here as the cart line's `stickerSize` and `addSticker`.
 */
const RequestProductSchema = z.preprocess(
	(input) => {
		if (!input || typeof input !== 'object') return input
		const form = input as Record<string, unknown>
		const id = IdSchema.safeParse(form.productId).data ?? 0
		return { ...form, stickerSize: form[`size-${id}`], addSticker: form[`addSticker-${id}`] }
	},
	z.object({
		// Not a product id: refused by the cart as a product that is not available.
		productId: IdSchema.catch(0),
		qrCodeUrl: QrCodeUrlSchema,
		color: ColorSchema.default(DEFAULT_QR_COLOR),
		stickerSize: z
			.string()
			.trim()
			.optional()
			.transform((v) => v || undefined),
		addSticker: z.preprocess((v) => v === 'on', z.boolean()),
		// Only an id goes back into the address: a long value would make a Location header no client reads.
		profileId: IdSchema.optional().catch(undefined),
	}),
)

/** Add to Cart for one product: a QR URL that is a URL, a palette colour, and a size for sticker products. */
export async function requestProductsAction(request: Request, context: Readonly<RouterContextProvider>) {
	const args = { request, context }
	await requireUserId(args)
	const submission = parseWithZod(await readPageForm(request), { schema: RequestProductSchema })
	// Which product's card the refusal is shown on.
	const extra = { productId: IdSchema.safeParse(submission.payload.productId).data ?? 0 }
	if (submission.status !== 'success') {
		// The URL is told first, under its own title; a colour not in the palette, untitled.
		const urlProblem = submission.error?.qrCodeUrl?.[0]
		const colorProblem = submission.error?.color?.[0] ?? ''
		const { urlRequired, invalidUrl } = REQUEST_PRODUCT_MESSAGES
		const refusal = urlProblem ? new DomainError(400, urlProblem, 'qrCodeUrl') : new DomainError(400, colorProblem, 'color')
		const toast = urlProblem ? (urlProblem === urlRequired.description ? urlRequired : invalidUrl) : {}
		return replyError(args, submission, refusal, { toast, extra })
	}
	const { qrCodeUrl, color, profileId, ...choice } = submission.value
	let result
	try {
		result = await addItemToCart(
			args,
			{ ...choice, quantity: 1, color, transparentBackground: false, qrShape: 'circular', qrCodeUrl },
			'request',
		)
	} catch (error) {
		const sizeMissing = error instanceof Error && error.message === SIZE_REQUIRED.description
		return replyError(args, submission, error, { toast: sizeMissing ? SIZE_REQUIRED : {}, extra })
	}
	const back = new URLSearchParams({ qrCodeUrl, color })
	if (profileId) back.set('profileId', String(profileId))
	return redirectWithToast(
		`${REQUEST_PAGE}?${back}`,
		{ type: 'success', ...ORDER_MESSAGES.added(result.name) },
		{ headers: result.cookie ? { 'set-cookie': result.cookie } : undefined },
	)
}
