import { randomBytes } from 'node:crypto'
import { env, isProduction } from './env.server.ts'

export function createNonce() {
	return randomBytes(16).toString('base64')
}

export function contentSecurityPolicy(nonce: string) {
	// Forms that end in a redirect elsewhere, which form-action must allow: sign-in to the identity provider, a donation
	// to Stripe's hosted Checkout page (or to the Stripe-compatible server's, with STRIPE_API_BASE).
	const formTargets = [
		"'self'",
		env.oidcEnabled ? new URL(env.OIDC_ISSUER!).origin : null,
		env.STRIPE_SECRET_KEY ? 'https://checkout.stripe.com' : null,
		env.STRIPE_SECRET_KEY && env.STRIPE_API_BASE ? new URL(env.STRIPE_API_BASE).origin : null,
	].filter(Boolean)
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
