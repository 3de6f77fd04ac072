import { createContext, useContext } from 'react'

const STYLE_ID = 'app-styles'

/** The stylesheet's text, given by the server (entry.server.tsx); none in development, where Vite serves it as a file. */
const PageStylesContext = createContext<string | null>(null)
export const PageStylesProvider = PageStylesContext.Provider

let writtenByServer: string | null | undefined

/**
 * The whole stylesheet in the head (about 7 KB gzip), so a page paints from its first response: no request blocks
 * rendering, and no script is needed. In the browser it is the text the server wrote, read back from the page, so the
 * stylesheet never travels inside a script and hydration finds the same element.
 */
export function PageStyles({ nonce }: { nonce: string }) {
	const server = useContext(PageStylesContext)
	const css =
		server ?? (writtenByServer ??= typeof document === 'undefined' ? null : (document.getElementById(STYLE_ID)?.textContent ?? null))
	return css == null ? null : <style id={STYLE_ID} nonce={nonce} dangerouslySetInnerHTML={{ __html: css }} />
}
