import { useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import type { z } from 'zod'

type Options<S extends z.ZodObject> = Omit<Parameters<typeof useForm<z.input<S>, z.output<S>>>[0], 'constraint' | 'onValidate'>

/**
 * A conform form checked by one zod schema: its constraints become HTML attributes, so the browser checks the fields
 * without JavaScript, and with it the schema checks them again as they change once the form has been validated.
 */
export function useSchemaForm<S extends z.ZodObject>(schema: S, options: Options<S>) {
	return useForm<z.input<S>, z.output<S>>({
		shouldRevalidate: 'onInput',
		...options,
		constraint: getZodConstraint(schema),
		onValidate: ({ formData }) => parseWithZod(formData, { schema }),
	})
}
