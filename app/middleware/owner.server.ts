import { timingSafeEqual, createHash } from 'node:crypto'
import { createContext, data, redirect, type MiddlewareFunction } from 'react-router'
import { twoFactorState } from '#app/domain/admin/owner-two-factor.server.ts'
import type { SignedInUser } from '#app/domain/accounts/accounts.server.ts'
import { loginPath } from '#app/utils/auth.server.ts'
import { env } from '#app/utils/env.server.ts'
import { pageUrl } from '#app/utils/http.ts'
import { accountKey, hit, limitAttempts } from '#app/utils/rate-limit.server.ts'
import { getClientIp } from '#app/utils/request.server.ts'
import { getSession, type AppSession } from '#app/utils/session.server.ts'
import { getUser } from './user.server.ts'
import type { RequestArgs } from '#app/utils/request.server.ts'
import { OWNER_ONLY } from './permissions.server.ts'

/** A passed second factor lasts this long in a session; then the owner enters a code again. */
const VERIFIED_HOURS = 12

/**
 * Where a request stands with the admin area:
 * - visitor: not signed in;
 * - denied: signed in, neither the owner's account nor a session that presented the admin token;
 * - enrol: the owner's account before two-factor sign-in is on (nothing of the admin area works yet);
 * - verify: the owner's account with two-factor on, this session not yet past the second factor;
 * - granted: the owner past the second factor, or a session that presented the admin token (the token is the factor).
 */
export type OwnerAccess =
	| { kind: 'visitor' }
	| { kind: 'denied' | 'enrol' | 'verify'; user: SignedInUser }
	| { kind: 'granted'; user: SignedInUser; via: 'two-factor' | 'token' }

/** Constant-time comparison of a presented token with ADMIN_TOKEN (hashed first, so lengths never leak). */
export function isValidAdminToken(token: unknown) {
	if (!env.ADMIN_TOKEN || typeof token !== 'string' || !token || token.length > 512) return false
	const digest = (value: string) => createHash('sha256').update(value).digest()
	return timingSafeEqual(digest(token), digest(env.ADMIN_TOKEN))
}

/**
 * A token presented by a signed-in person (the form, the spec's `?token=` and the JSON call alike), counted per address
 * and per account before it is compared: either how long to wait, or whether it is the admin token.
 */
export async function presentAdminToken(args: RequestArgs, userId: string, token: unknown) {
	const counts = await Promise.all([
		limitAttempts('admin-token', getClientIp(args.request, args.context)),
		hit(accountKey('admin-token-account', userId), env.RATE_LIMIT_STRICT_PER_MINUTE),
	])
	const refused = counts.filter((count) => !count.allowed)
	if (refused.length) return { valid: false, retryAfterSeconds: Math.max(...refused.map((count) => count.retryAfterSeconds)) }
	return { valid: isValidAdminToken(token), retryAfterSeconds: null }
}

export const hasAdminToken = (session: AppSession, userId: string) =>
	session.get('adminTokenValid') === true && session.get('adminTokenUserId') === userId

function passedSecondFactor(session: AppSession, userId: string) {
	const verified = session.get('ownerVerified') as { userId?: string; at?: number } | undefined
	return verified?.userId === userId && typeof verified.at === 'number' && Date.now() - verified.at < VERIFIED_HOURS * 3600_000
}

export function markSecondFactorPassed(session: AppSession, userId: string) {
	session.set('ownerVerified', { userId, at: Date.now() })
}

export function markAdminToken(session: AppSession, userId: string) {
	session.set('adminTokenValid', true)
	session.set('adminTokenUserId', userId)
}

const accessRead = createContext<Promise<OwnerAccess> | null>(null)

/** Read once per request: the layout's middleware and the route's loader or action share it. */
export function ownerAccess(args: RequestArgs): Promise<OwnerAccess> {
	let access = args.context.get(accessRead)
	if (!access) args.context.set(accessRead, (access = readOwnerAccess(args)))
	return access
}

async function readOwnerAccess(args: RequestArgs): Promise<OwnerAccess> {
	const user = await getUser(args)
	if (!user) return { kind: 'visitor' }
	const session = await getSession(args)
	if (hasAdminToken(session, user.id)) return { kind: 'granted', user, via: 'token' }
	if (!user.isOwner) return { kind: 'denied', user }
	if (!(await twoFactorState(user.id)).enabled) return { kind: 'enrol', user }
	if (!passedSecondFactor(session, user.id)) return { kind: 'verify', user }
	return { kind: 'granted', user, via: 'two-factor' }
}

/** Spec 002's Access Denied, with the way to enter an admin token. */
export const ownerOnlyPage = () => data({ message: OWNER_ONLY, link: { to: '/owner-panel', label: 'Admin Access' } }, { status: 403 })

const isApi = (request: Request) => pageUrl(request).pathname.startsWith('/api/')

export const SECOND_FACTOR_REQUIRED = 'Two-factor sign-in is required: enter a code at /owner-panel/two-factor first.'

/**
 * The admin layout's middleware: every admin page, page action and admin endpoint beneath it runs only for `granted`.
 * Pages send a visitor to sign-in, the owner to the second factor, and show everyone else Access Denied; endpoints
 * answer JSON (401, 403).
 */
export const requireOwnerMiddleware: MiddlewareFunction<Response> = async (args, next) => {
	const access = await ownerAccess(args)
	if (access.kind === 'granted') return next()
	const { request } = args
	if (isApi(request)) {
		if (access.kind === 'visitor') return Response.json({ message: 'Authentication required - please refresh the page' }, { status: 401 })
		const message = access.kind === 'denied' ? OWNER_ONLY : SECOND_FACTOR_REQUIRED
		return Response.json({ message }, { status: 403 })
	}
	if (access.kind === 'visitor') throw redirect(loginPath(request))
	if (access.kind === 'denied') throw ownerOnlyPage()
	const { pathname, search } = pageUrl(request)
	throw redirect(`/owner-panel/two-factor?${new URLSearchParams({ redirectTo: pathname + search })}`)
}

/** For loaders and actions under the admin layout: the owner the middleware let in. */
export async function requireGrantedOwner(args: RequestArgs) {
	const access = await ownerAccess(args)
	if (access.kind !== 'granted') throw ownerOnlyPage()
	return access.user
}
