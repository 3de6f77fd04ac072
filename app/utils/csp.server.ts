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
	// The in-page payment form (/checkout) is Stripe's: its script, its frames and its API.
	const inPage = Boolean(env.STRIPE_SECRET_KEY && env.STRIPE_PUBLISHABLE_KEY)
	return [
		"default-src 'self'",
		`script-src 'nonce-${nonce}' 'strict-dynamic'${isProduction ? '' : " 'unsafe-eval'"}`,
		"style-src 'self' 'unsafe-inline'",
		`img-src 'self' data: blob:${inPage ? ' https://*.stripe.com' : ''}`,
		"font-src 'self'",
		`connect-src 'self'${inPage ? ' https://api.stripe.com' : ''}${isProduction ? '' : ' ws: wss:'}`,
		...(inPage ? ['frame-src https://js.stripe.com https://hooks.stripe.com'] : []),
		"object-src 'none'",
		"base-uri 'none'",
		`form-action ${formTargets.join(' ')}`,
		"frame-ancestors 'none'",
		...(isProduction && env.PUBLIC_URL.startsWith('https:') ? ['upgrade-insecure-requests'] : []),
	].join('; ')
}
