import { z } from 'zod'
import { QrCustomizationSchema } from './schemas.ts'

const checked = (v: unknown) => v === true || v === 'on' || v === 'true'

const checkbox = z.preprocess(checked, z.boolean())

/**
 * The customisation as an HTML form sends it: unticked boxes are simply absent. An object, so a page's union of forms
 * can extend its shape.
 */
export const QrCustomizationFormSchema = QrCustomizationSchema.extend({ circular: checkbox, transparentBackground: checkbox })
