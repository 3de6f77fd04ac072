import { renderQrSvg } from '#app/domain/qr/render.server.ts'
import { CartItemSchema } from '#app/domain/shop/cart.ts'
import { env } from '#app/utils/env.server.ts'
import type { Route } from './+types/preview'

/**
 * The shop's product preview: the look a buyer chose, on a code that opens this site (the real code, one of the
 * buyer's, is chosen at checkout). Public and cacheable; bad options get a 400, never a 500.
 */
export function loader({ request }: Route.LoaderArgs) {
	const params = new URL(request.url).searchParams
	const parsed = CartItemSchema.pick({ color: true, qrShape: true, customText: true }).safeParse({
		color: params.get('color') ?? undefined,
		qrShape: params.get('qrShape') ?? undefined,
		customText: params.get('customText') ?? undefined,
	})
	if (!parsed.success)
		return new Response(parsed.error.issues[0]!.message, { status: 400, headers: { 'content-type': 'text/plain; charset=utf-8' } })
	const svg = renderQrSvg({
		data: env.PUBLIC_URL,
		color: parsed.data.color,
		circular: parsed.data.qrShape === 'circular',
		customText: parsed.data.customText,
		transparentBackground: params.get('transparentBackground') === 'on',
		width: 280,
	})
	return new Response(svg, {
		headers: { 'content-type': 'image/svg+xml', 'cache-control': 'public, max-age=86400', 'x-content-type-options': 'nosniff' },
	})
}
