import { z } from 'zod'
import { idSchema } from '#app/domain/profiles/schemas.ts'
import { LANGUAGES, type Language } from '#app/domain/responder/labels.ts'
import { DEFAULT_LOCK_SCREEN, LOCK_SCREEN_SIZES, PAPERS, sizeName } from './options.ts'

const SIZE_MESSAGE = `The size must be one of ${LOCK_SCREEN_SIZES.map(sizeName).join(', ')} (w×h, in pixels)`

const lang = z.enum(LANGUAGES, { error: `lang must be one of ${LANGUAGES.join(', ')}` }).default('en')
const code = idSchema('code must be the id of one of the profile’s active QR codes').optional()

export const WalletCardQuerySchema = z.object({ lang, code })

export const FridgeSheetQuerySchema = z.object({
	lang,
	code,
	paper: z.enum(PAPERS, { error: `paper must be one of ${PAPERS.join(', ')}` }).default(PAPERS[0]),
})

/**
 * `w` and `h` name one of the offered sizes; either alone is enough, since no two sizes share a width or a height (a
 * form without JavaScript sends one select's value). Neither: the default size.
 */
export const LockScreenQuerySchema = z
	.object({ w: z.string().optional(), h: z.string().optional(), lang, code })
	.transform((query, ctx): LockScreenQuery => {
		const matching = LOCK_SCREEN_SIZES.filter(
			(s) => (query.w === undefined || String(s.width) === query.w) && (query.h === undefined || String(s.height) === query.h),
		)
		const size = query.w === undefined && query.h === undefined ? DEFAULT_LOCK_SCREEN : matching.length === 1 ? matching[0] : undefined
		if (!size) {
			ctx.addIssue({ code: 'custom', message: SIZE_MESSAGE, path: [query.w === undefined ? 'h' : 'w'] })
			return z.NEVER
		}
		return { width: size.width, height: size.height, lang: query.lang, code: query.code }
	})

export type WalletCardQuery = z.infer<typeof WalletCardQuerySchema>
export type FridgeSheetQuery = z.infer<typeof FridgeSheetQuerySchema>
export type LockScreenQuery = { width: number; height: number; lang: Language; code?: number }
