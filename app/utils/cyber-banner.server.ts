import { HIDE_CYBER_BANNER, HIDE_CYBER_BANNER_OPTIONS } from './cyber-banner.ts'
import { plainCookie } from './plain-cookie.ts'

/** Set to "true" by the dismiss form's post (and by the banner's script); not HttpOnly, as that script writes it. */
const hideCyberBannerCookie = plainCookie(HIDE_CYBER_BANNER, HIDE_CYBER_BANNER_OPTIONS)

/** The Set-Cookie that hides the banner. */
export function hideCyberBanner(secure: boolean) {
	return hideCyberBannerCookie.serialize('true', { secure })
}

export async function isCyberBannerHidden(cookieHeader: string | null | undefined) {
	return (await hideCyberBannerCookie.parse(cookieHeader ?? null)) === 'true'
}
