import { z } from 'zod'
import { customTextStatus, DEFAULT_QR_COLOR, DEFAULT_TEXT_COLOR, QR_COLORS, TEXT_COLORS, type QrColor, type TextColor } from './palette.ts'

const QR_HEXES = QR_COLORS.map((c) => c.hex) as [QrColor, ...QrColor[]]
const TEXT_HEXES = [...new Set(TEXT_COLORS.map((c) => c.hex))] as [TextColor, ...TextColor[]]

function paletteSchema<T extends string>(values: [T, ...T[]], message: string) {
	return z
		.string({ error: message })
		.trim()
		.toUpperCase()
		.pipe(z.enum(values, { error: message }))
}

export const CustomTextSchema = z
	.string()
	.refine((text) => !/\p{Cc}/u.test(text), 'Custom text cannot contain line breaks or control characters')
	.superRefine((text, ctx) => {
		const status = customTextStatus(text)
		if (!status.valid) ctx.addIssue({ code: 'custom', message: status.message })
	})

export const QrCustomizationSchema = z.object({
	color: paletteSchema(QR_HEXES, 'Please choose a QR colour from the palette').default(DEFAULT_QR_COLOR),
	textColor: paletteSchema(TEXT_HEXES, 'Please choose a text colour from the palette').default(DEFAULT_TEXT_COLOR),
	circular: z.boolean().default(true),
	customText: CustomTextSchema.optional().transform((text) => text?.trim() || undefined),
	transparentBackground: z.boolean().default(false),
	width: z.number().int().min(100).max(2000).default(400),
	margin: z.number().int().min(2).max(10).default(3),
})

export type QrCustomization = z.infer<typeof QrCustomizationSchema>
