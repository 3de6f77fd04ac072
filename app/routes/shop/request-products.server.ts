import { readPageForm } from '#app/utils/request.server.ts'
import { DomainError } from '#app/utils/errors.ts'
import { data, type RouterContextProvider } from 'react-router'
import { z } from 'zod'
import { listProfiles } from '#app/domain/profiles/profiles.server.ts'
import { IdSchema } from '#app/domain/profiles/schemas.ts'
import { profileLabel } from '#app/domain/profiles/schemas.ts'
import { listCodes } from '#app/domain/qr/manage.server.ts'
import { DEFAULT_QR_COLOR, QR_COLORS } from '#app/domain/qr/palette.ts'
import { renderQrSvg } from '#app/domain/qr/render.server.ts'
import { listProducts } from '#app/domain/shop/cart.server.ts'
import { addItemToCart } from './cart-session.server.ts'
import { SIZE_REQUIRED } from '#app/domain/shop/cart.ts'
import { ORDER_MESSAGES, QrCodeUrlSchema, REQUEST_PAGE, REQUEST_PRODUCT_MESSAGES } from '#app/domain/shop/schemas.ts'
import { requireUserId } from '#app/middleware/permissions.server.ts'
import { pageUrl } from '#app/utils/http.ts'
import { actionToast, redirectWithToast } from '#app/utils/toast.server.ts'
import type { ToastInput } from '#app/utils/toast.ts'
import type { RequestArgs } from '#app/middleware/user.server.ts'

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

/** Add to Cart for one product: a QR URL that is a URL, a palette colour, and a size for sticker products. */
export async function requestProductsAction(request: Request, context: Readonly<RouterContextProvider>) {
	await requireUserId({ request, context })
	const form = await readPageForm(request)
	const productId = IdSchema.safeParse(form.get('productId')).data ?? 0
	const color = ColorSchema.safeParse(form.get('color') ?? DEFAULT_QR_COLOR)
	const url = QrCodeUrlSchema.safeParse(form.get('qrCodeUrl') ?? '')
	const fail = async (errors: Record<string, string[]>, toast: ToastInput) =>
		data({ productId, errors }, { status: 400, headers: await actionToast(request, context, toast) })
	if (!url.success) {
		const message = url.error.issues[0]!.message
		const titled =
			message === REQUEST_PRODUCT_MESSAGES.urlRequired.description
				? REQUEST_PRODUCT_MESSAGES.urlRequired
				: REQUEST_PRODUCT_MESSAGES.invalidUrl
		return fail({ qrCodeUrl: [message] }, { type: 'error', ...titled })
	}
	if (!color.success)
		return fail({ color: [color.error.issues[0]!.message] }, { type: 'error', description: color.error.issues[0]!.message })
	const size = String(form.get(`size-${productId}`) ?? '').trim()
	let result
	try {
		result = await addItemToCart(
			request,
			{
				productId,
				quantity: 1,
				color: color.data,
				addSticker: form.get(`addSticker-${productId}`) === 'on',
				transparentBackground: false,
				qrShape: 'circular',
				qrCodeUrl: url.data,
				stickerSize: size || undefined,
			},
			'request',
		)
	} catch (error) {
		if (!(error instanceof DomainError)) throw error
		const sizeMissing = error.message === SIZE_REQUIRED.description
		return fail(
			{ [error.field === 'stickerSize' ? `size-${productId}` : 'form']: [error.message] },
			sizeMissing ? { type: 'error', ...SIZE_REQUIRED } : { type: 'error', description: error.message },
		)
	}
	const back = new URLSearchParams({ qrCodeUrl: url.data, color: color.data })
	// Only an id goes back into the address: a long value would make a Location header no client reads.
	const profileId = IdSchema.safeParse(form.get('profileId') ?? undefined)
	if (profileId.success) back.set('profileId', String(profileId.data))
	return redirectWithToast(
		`${REQUEST_PAGE}?${back}`,
		{ type: 'success', ...ORDER_MESSAGES.added(result.name) },
		{ headers: result.cookie ? { 'set-cookie': result.cookie } : undefined },
	)
}
