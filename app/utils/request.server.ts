import { createContext, data, type RouterContextProvider } from 'react-router'
import { readForm } from '#app/domain/uploads/uploads.server.ts'
import { env } from './env.server.ts'

/** The peer address of the TCP connection, set by server.ts. */
export const clientAddressContext = createContext<string | null>(null)

export function getClientIp(request: Request, context?: Readonly<RouterContextProvider>) {
	if (env.TRUST_PROXY) {
		const forwarded = request.headers.get('x-forwarded-for')?.split(',')[0]?.trim()
		if (forwarded) return forwarded
	}
	let peer: string | null = null
	try {
		peer = context?.get(clientAddressContext) ?? null
	} catch {
		peer = null
	}
	return peer ?? '127.0.0.1'
}

export const UNREADABLE_FORM = 'This form could not be read. Please reload the page and try again.'

/**
 * A page action's form, size-limited like every body. A body that is not a form (JSON, text, a broken multipart) is
 * the sender's fault: a 400 (413 when too large), never a crash.
 */
export async function readPageForm(request: Request) {
	const form = await readForm(request)
	if (!form.ok) throw data({ message: form.status === 413 ? form.message : UNREADABLE_FORM }, { status: form.status })
	return form.formData
}
