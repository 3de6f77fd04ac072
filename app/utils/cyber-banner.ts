/** The spec's browser-storage key; the cookie has the same name so the server can leave the banner out. */
export const HIDE_CYBER_BANNER = 'hideCyberBanner'
const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60

export function hideCyberBannerCookie(secure: boolean) {
	return `${HIDE_CYBER_BANNER}=true; Path=/; Max-Age=${ONE_YEAR_SECONDS}; SameSite=Lax${secure ? '; Secure' : ''}`
}

export function isCyberBannerHidden(cookieHeader: string | null | undefined) {
	return (cookieHeader ?? '').split(/;\s*/).includes(`${HIDE_CYBER_BANNER}=true`)
}
