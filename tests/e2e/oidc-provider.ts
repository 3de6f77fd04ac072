import { createServer, type Server } from 'node:http'
import Provider from 'oidc-provider'

/** A real OpenID Connect provider on loopback. Its dev login accepts any login; the login is taken as the e-mail. */
export async function startOidcProvider(port: number, redirectUri: string, names: Record<string, string> = {}) {
	const issuer = `http://localhost:${port}`
	const provider = new Provider(issuer, {
		clients: [
			{
				client_id: 'hit-me-helpers',
				client_secret: 'e2e-client-secret',
				redirect_uris: [redirectUri],
				grant_types: ['authorization_code'],
				response_types: ['code'],
			},
		],
		claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name', 'name'] },
		cookies: { keys: ['e2e-cookie-key'] },
		ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600 },
		features: { devInteractions: { enabled: true } },
		async findAccount(_ctx, id) {
			return {
				accountId: id,
				async claims() {
					return { sub: id, email: id, email_verified: true, given_name: names[id], family_name: 'Provider' }
				},
			}
		},
	})
	const server: Server = createServer(provider.callback())
	await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
	return { issuer, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}
