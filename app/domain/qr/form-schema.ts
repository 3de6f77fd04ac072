import { z } from 'zod'
import { QrCustomizationSchema } from './schemas.ts'

const checked = (v: unknown) => v === true || v === 'on' || v === 'true'

/** The customisation as an HTML form sends it: unticked boxes are simply absent. */
export const QrCustomizationFormSchema = z.preprocess((input) => {
	const values = (input ?? {}) as Record<string, unknown>
	return { ...values, circular: checked(values.circular), transparentBackground: checked(values.transparentBackground) }
}, QrCustomizationSchema)
