import type { ProviderIdentity } from '#app/utils/session.server.ts'
import { Authenticator } from 'remix-auth'
import { CodeChallengeMethod, OAuth2Strategy } from 'remix-auth-oauth2'
import { z } from 'zod'
import { env, isProduction } from '#app/utils/env.server.ts'

/** The provider would not say who the person is. */
export class IdentityError extends Error {}

/** Who the provider says the person is; the domain decides which account that is. */
export type OidcIdentity = ProviderIdentity

const authenticator = new Authenticator<OidcIdentity>()

const DiscoverySchema = z.object({
	issuer: z.string(),
	authorization_endpoint: z.string(),
	token_endpoint: z.string(),
	userinfo_endpoint: z.string(),
})

const UserInfoSchema = z.object({
	sub: z.string(),
	email: z.email(),
	email_verified: z.boolean().optional(),
	given_name: z.string().optional(),
	family_name: z.string().optional(),
	name: z.string().optional(),
})

let oidcReady: Promise<void> | null = null

/** Discovers the provider once; a failed discovery is retried on the next sign-in. */
function ensureOidc() {
	oidcReady ??= (async () => {
		const issuer = env.OIDC_ISSUER!.replace(/\/$/, '')
		const response = await fetch(`${issuer}/.well-known/openid-configuration`)
		if (!response.ok) throw new Error(`OIDC discovery failed: ${response.status}`)
		const config = DiscoverySchema.parse(await response.json())
		authenticator.use(
			new OAuth2Strategy(
				{
					cookie: {
						name: 'hmh_oauth',
						httpOnly: true,
						sameSite: 'Lax',
						path: '/',
						...(isProduction && env.PUBLIC_URL.startsWith('https:') ? { secure: true as const } : {}),
					},
					clientId: env.OIDC_CLIENT_ID!,
					clientSecret: env.OIDC_CLIENT_SECRET!,
					authorizationEndpoint: config.authorization_endpoint,
					tokenEndpoint: config.token_endpoint,
					redirectURI: new URL('/auth/callback', env.PUBLIC_URL).toString(),
					scopes: env.OIDC_SCOPES.split(/\s+/).filter(Boolean),
					codeChallengeMethod: CodeChallengeMethod.S256,
				},
				async ({ tokens }) => {
					const info = await fetch(config.userinfo_endpoint, {
						headers: { authorization: `Bearer ${tokens.accessToken()}` },
					})
					if (!info.ok) throw new IdentityError('Your sign-in provider did not share your e-mail address.')
					const claims = UserInfoSchema.safeParse(await info.json())
					if (!claims.success) throw new IdentityError('Your sign-in provider did not share your e-mail address.')
					const [first, ...rest] = (claims.data.name ?? '').split(' ')
					return {
						provider: env.OIDC_PROVIDER_NAME,
						subject: claims.data.sub,
						email: claims.data.email,
						emailVerified: claims.data.email_verified === true,
						firstName: claims.data.given_name ?? (first || undefined),
						lastName: claims.data.family_name ?? (rest.join(' ') || undefined),
					}
				},
			),
			'oidc',
		)
	})().catch((error) => {
		oidcReady = null
		throw error
	})
	return oidcReady
}

/** Throws the redirect to the provider, or (on the callback) returns who the provider says the person is. */
export async function authenticateWithOidc(request: Request) {
	await ensureOidc()
	return authenticator.authenticate('oidc', request)
}
