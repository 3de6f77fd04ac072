/** The spec's browser-storage key; the cookie has the same name so the server can leave the banner out. */
export const HIDE_CYBER_BANNER = 'hideCyberBanner'
const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60

/** The cookie's attributes: the server's cookie (cyber-banner.server.ts) and the banner's script both use these. */
export const HIDE_CYBER_BANNER_OPTIONS = { path: '/', maxAge: ONE_YEAR_SECONDS, sameSite: 'lax' } as const

/**
 * The banner's script remembers a dismissal itself. It writes document.cookie by hand, with the same attributes, in the
 * order react-router's serialize writes them: react-router's cookie code in the browser would add 2 KB to every page.
 */
export function rememberCyberBannerHidden(secure: boolean) {
	const { path, maxAge } = HIDE_CYBER_BANNER_OPTIONS
	document.cookie = `${HIDE_CYBER_BANNER}=true; Max-Age=${maxAge}; Path=${path}${secure ? '; Secure' : ''}; SameSite=Lax`
}
