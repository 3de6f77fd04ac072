import { createContext, type RouterContextProvider } from 'react-router'
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
