import { createCookie, redirect, type RouterContextProvider } from 'react-router'
import { getConsentStatus, type ClientInfo } from '#app/domain/consent/consent.server.ts'
import { env, isProduction } from '#app/utils/env.server.ts'
import { pageUrl } from '#app/utils/http.ts'
import { getClientIp } from '#app/utils/request.server.ts'

/** Who agreed from where: stored with every consent record. */
export function clientInfo(request: Request, context?: Readonly<RouterContextProvider>): ClientInfo {
	return { ipAddress: getClientIp(request, context), userAgent: request.headers.get('user-agent')?.slice(0, 500) ?? null }
}

export function consentPath(request: Request) {
	const { pathname, search } = pageUrl(request)
	return `/consent?${new URLSearchParams({ redirectTo: pathname + search })}`
}

/** For a signed-in page: on to /consent (and back afterwards) while any current form is unsigned. */
export async function requireConsents(request: Request, userId: string) {
	const { missing } = await getConsentStatus(userId)
	if (missing.length) throw redirect(consentPath(request))
}

// A browser-session cookie (no expiry) naming the account that closed the notice.
const noticeCookie = createCookie('hmh_consent_notice', {
	httpOnly: true,
	sameSite: 'lax',
	path: '/',
	secrets: env.sessionSecrets,
	secure: isProduction && env.PUBLIC_URL.startsWith('https:'),
})

export function dismissNoticeCookie(userId: string) {
	return noticeCookie.serialize(userId)
}

/** For the root loader: the notice's numbers, or null when it is not to be shown. */
export async function getConsentNotice(request: Request, userId: string) {
	if ((await noticeCookie.parse(request.headers.get('cookie'))) === userId) return null
	const status = await getConsentStatus(userId)
	if (!status.missing.length) return null
	return { missing: status.missing.length, total: status.forms.length }
}
