import { createCookie, type RouterContextProvider } from 'react-router'
import { env, isProduction } from './env.server.ts'
import { accountKey, type GuessSource } from './rate-limit.server.ts'
import { getClientIp } from './request.server.ts'

/** What a browser proved for an account: its password (sign-in) or, for the owner, the second factor. */
export type Proof = 'signin' | 'second-factor'

/** Proofs one browser is remembered for (a family's shared computer). */
const PROOFS_PER_DEVICE = 8

/**
 * The accounts this browser has proved itself for (keyed hashes, never ids or addresses), signed so nobody can write one:
 * such a browser is not held to an account's ceiling of guesses over all addresses (countGuess), so a stranger's
 * guesses from many addresses cannot keep the account's own person out. Each proof counts only for itself: a password
 * never makes a browser trusted for the second factor.
 */
const deviceCookie = createCookie('hmh_device', {
	httpOnly: true,
	sameSite: 'lax',
	path: '/',
	maxAge: 400 * 24 * 60 * 60,
	secrets: env.sessionSecrets,
	secure: isProduction && env.PUBLIC_URL.startsWith('https:'),
})

const tagOf = (proof: Proof, identity: string) => accountKey(`device-${proof}`, identity.toLowerCase())

async function tagsOf(request: Request): Promise<string[]> {
	const value: unknown = await deviceCookie.parse(request.headers.get('cookie')).catch(() => null)
	return Array.isArray(value) ? value.filter((tag): tag is string => typeof tag === 'string').slice(0, PROOFS_PER_DEVICE) : []
}

/** Whether this browser has given this proof for the account (an e-mail for sign-in, a user id for the second factor). */
export async function isTrustedDevice(request: Request, proof: Proof, identity: string) {
	return (await tagsOf(request)).includes(tagOf(proof, identity))
}

/** The Set-Cookie that remembers this browser for the proof just given (newest first). */
export async function trustDevice(request: Request, proof: Proof, identity: string) {
	const tag = tagOf(proof, identity)
	return deviceCookie.serialize([tag, ...(await tagsOf(request)).filter((t) => t !== tag)].slice(0, PROOFS_PER_DEVICE))
}

/** Where a guess at this account's secret comes from: the client's address, and whether this browser gave the proof before. */
export async function guessSource(
	{ request, context }: { request: Request; context: Readonly<RouterContextProvider> },
	proof: Proof,
	identity: string,
): Promise<GuessSource> {
	return { address: getClientIp(request, context), trustedDevice: await isTrustedDevice(request, proof, identity) }
}
