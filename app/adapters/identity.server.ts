import { Authenticator } from 'remix-auth'
import { FormStrategy } from 'remix-auth-form'
import { CodeChallengeMethod, OAuth2Strategy } from 'remix-auth-oauth2'
import { z } from 'zod'
import { INVALID_LOGIN, findOrCreateOidcUser, verifyLogin } from '#app/domain/accounts/accounts.server.ts'
import { LoginSchema } from '#app/domain/accounts/schemas.ts'
import { env, isProduction } from '#app/utils/env.server.ts'

export class LoginError extends Error {
	constructor(
		message: string,
		readonly status: 400 | 429 = 400,
	) {
		super(message)
	}
}

const authenticator = new Authenticator<string>()

authenticator.use(
	new FormStrategy(async ({ form }) => {
		// This reads the raw form: a NUL (PostgreSQL text cannot hold one) is dropped here, as readForm does for pages.
		const fields = Object.fromEntries([...form].map(([name, value]) => [name, typeof value === 'string' ? value.replaceAll('\0', '') : value]))
		const parsed = LoginSchema.safeParse(fields)
		if (!parsed.success) throw new LoginError(INVALID_LOGIN)
		const login = await verifyLogin(parsed.data.email, parsed.data.password)
		if (!login.ok) throw new LoginError(login.message, login.status)
		return login.user.id
	}),
	'form',
)

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
					cookie: { name: 'hmh_oauth', httpOnly: true, sameSite: 'Lax', path: '/', ...(isProduction && env.PUBLIC_URL.startsWith('https:') ? { secure: true as const } : {}) },
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
					if (!info.ok) throw new LoginError('Your sign-in provider did not share your e-mail address.')
					const claims = UserInfoSchema.safeParse(await info.json())
					if (!claims.success) throw new LoginError('Your sign-in provider did not share your e-mail address.')
					const [first, ...rest] = (claims.data.name ?? '').split(' ')
					const user = await findOrCreateOidcUser({
						provider: env.OIDC_PROVIDER_NAME,
						subject: claims.data.sub,
						email: claims.data.email,
						emailVerified: claims.data.email_verified === true,
						firstName: claims.data.given_name ?? (first || undefined),
						lastName: claims.data.family_name ?? (rest.join(' ') || undefined),
					})
					return user.id
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

export async function authenticateWithForm(request: Request) {
	return authenticator.authenticate('form', request)
}

/** Throws the redirect to the provider, or (on the callback) returns the signed-in user's id. */
export async function authenticateWithOidc(request: Request) {
	await ensureOidc()
	return authenticator.authenticate('oidc', request)
}
