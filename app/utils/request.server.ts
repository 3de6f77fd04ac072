import { createContext, data, type RouterContextProvider } from 'react-router'
import { DomainError } from '#app/utils/errors.ts'
import { addressMatcher, clientAddress } from './client-address.ts'
import { env } from './env.server.ts'
import { FORM_LIMIT, readForm } from './form-body.server.ts'
import { limitAttempts, TOO_MANY_ATTEMPTS, type AttemptBucket } from './rate-limit.server.ts'

/** What every loader, action and middleware is given: the request, and the state kept for it (router context). */
export type RequestArgs = { request: Request; context: Readonly<RouterContextProvider> }

/** The peer address of the TCP connection, set by server.ts. */
export const clientAddressContext = createContext<string | null>(null)

const isTrustedProxy = addressMatcher(env.TRUSTED_PROXIES)

function peerAddress(context?: Readonly<RouterContextProvider>) {
	try {
		return context?.get(clientAddressContext) ?? '127.0.0.1'
	} catch {
		return '127.0.0.1'
	}
}

/** The client's address: the TCP peer, or behind proxies listed in TRUSTED_PROXIES, the address they vouch for. */
export function getClientIp(request: Request, context?: Readonly<RouterContextProvider>) {
	return clientAddress(peerAddress(context), request.headers.get('x-forwarded-for'), isTrustedProxy)
}

/** Whether the request came through one of our proxies, whose headers (geolocation, say) can then be believed. */
export function viaTrustedProxy(context?: Readonly<RouterContextProvider>) {
	return isTrustedProxy(peerAddress(context))
}

/**
 * A page form's strict-tier count, in its action so that a refusal is the page itself with what was typed: null when
 * allowed, else the headers of the 429 reply.
 */
export async function refusedAttempt(bucket: AttemptBucket, request: Request, context: Readonly<RouterContextProvider>) {
	const result = await limitAttempts(bucket, getClientIp(request, context))
	return result.allowed ? null : { 'retry-after': String(result.retryAfterSeconds) }
}

/** The same count, refusing by throwing: a 429 `DomainError` that carries when to try again. */
export async function limitPageAttempt(bucket: AttemptBucket, request: Request, context: Readonly<RouterContextProvider>) {
	const result = await limitAttempts(bucket, getClientIp(request, context))
	if (!result.allowed) throw new DomainError(429, TOO_MANY_ATTEMPTS, undefined, result.retryAfterSeconds)
}

export const UNREADABLE_FORM = FORM_LIMIT.unreadable

/**
 * A page action's form, size-limited like every body. A body that is not a form (JSON, text, a broken multipart) is
 * the sender's fault: a 400 (413 when too large), never a crash.
 */
export async function readPageForm(request: Request) {
	const form = await readForm(request)
	if (!form.ok) throw data({ message: form.message }, { status: form.status })
	return form.formData
}
