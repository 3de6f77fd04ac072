import { z } from 'zod'
import { idSchema } from '#app/domain/profiles/schemas.ts'
import { DEFAULT_QR_COLOR, QR_COLORS } from '#app/domain/qr/palette.ts'
import { CustomTextSchema } from '#app/domain/qr/schemas.ts'
import { MAX_LINE_QUANTITY, type CartItem } from './cart-lines.ts'

// The rules of cart lines are zod-free, so the browser can use them without zod; the server imports both from here.
export * from './cart-lines.ts'

const QR_HEXES = QR_COLORS.map((c) => c.hex) as [string, ...string[]]

export const CartItemSchema = z.object({
	productId: idSchema('Please choose a product'),
	quantity: z.coerce
		.number({ error: `Quantity must be between 1 and ${MAX_LINE_QUANTITY}` })
		.int(`Quantity must be between 1 and ${MAX_LINE_QUANTITY}`)
		.min(1, `Quantity must be between 1 and ${MAX_LINE_QUANTITY}`)
		.max(MAX_LINE_QUANTITY, `Quantity must be between 1 and ${MAX_LINE_QUANTITY}`)
		.default(1),
	color: z
		.string()
		.trim()
		.toUpperCase()
		.pipe(z.enum(QR_HEXES, { error: 'Please choose a colour from the palette' }))
		.default(DEFAULT_QR_COLOR),
	addSticker: z.boolean().default(false),
	transparentBackground: z.boolean().default(false),
	qrShape: z.enum(['circular', 'square'], { error: 'Please choose a circular or square QR code' }).default('circular'),
	customText: CustomTextSchema.optional().transform((text) => text?.trim() || undefined),
	stickerSize: z
		.string()
		.trim()
		.max(40)
		.optional()
		.transform((v) => v || undefined),
	qrCodeUrl: z
		.string()
		.trim()
		.max(500)
		.optional()
		.transform((v) => v || undefined),
}) satisfies z.ZodType<CartItem, unknown>

/** Keeps the valid lines of a stored cart; anything unparsable gives an empty cart, never an error. */
export function parseCart(value: unknown): CartItem[] {
	let raw = value
	if (typeof raw === 'string') {
		try {
			raw = JSON.parse(raw)
		} catch {
			return []
		}
	}
	if (!Array.isArray(raw)) return []
	return raw.flatMap((line) => {
		const parsed = CartItemSchema.safeParse(line)
		return parsed.success ? [parsed.data] : []
	})
}
