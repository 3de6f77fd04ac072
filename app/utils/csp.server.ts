import { randomBytes } from 'node:crypto'
import { env, isProduction } from './env.server.ts'

export function createNonce() {
	return randomBytes(16).toString('base64')
}

export function contentSecurityPolicy(nonce: string) {
	// A sign-in form can end in a redirect to the identity provider, which form-action must allow.
	const formTargets = ["'self'", env.oidcEnabled ? new URL(env.OIDC_ISSUER!).origin : null].filter(Boolean)
	return [
		"default-src 'self'",
		`script-src 'nonce-${nonce}' 'strict-dynamic'${isProduction ? '' : " 'unsafe-eval'"}`,
		"style-src 'self' 'unsafe-inline'",
		"img-src 'self' data: blob:",
		"font-src 'self'",
		`connect-src 'self'${isProduction ? '' : ' ws: wss:'}`,
		"object-src 'none'",
		"base-uri 'none'",
		`form-action ${formTargets.join(' ')}`,
		"frame-ancestors 'none'",
		...(isProduction && env.PUBLIC_URL.startsWith('https:') ? ['upgrade-insecure-requests'] : []),
	].join('; ')
}
