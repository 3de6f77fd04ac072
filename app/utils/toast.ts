import { z } from 'zod'

export const ToastSchema = z.object({
	id: z.string().default(() => Math.random().toString(36).slice(2)),
	type: z.enum(['message', 'success', 'error']).default('message'),
	title: z.string().optional(),
	description: z.string(),
})

export type Toast = z.infer<typeof ToastSchema>
export type ToastInput = z.input<typeof ToastSchema>
