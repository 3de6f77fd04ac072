import { plainCookie } from './plain-cookie.ts'

/** The spec's browser-storage key; the cookie has the same name so the server can leave the banner out. */
export const HIDE_CYBER_BANNER = 'hideCyberBanner'
const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60

/** Set to "true" by the dismiss form's post, and by the banner's script; not HttpOnly, as that script writes it. */
export const hideCyberBannerCookie = plainCookie(HIDE_CYBER_BANNER, { path: '/', maxAge: ONE_YEAR_SECONDS, sameSite: 'lax' })

/** The Set-Cookie (or document.cookie) text that hides the banner. */
export function hideCyberBanner(secure: boolean) {
	return hideCyberBannerCookie.serialize('true', { secure })
}

export async function isCyberBannerHidden(cookieHeader: string | null | undefined) {
	return (await hideCyberBannerCookie.parse(cookieHeader ?? null)) === 'true'
}
