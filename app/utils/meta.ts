import type { MetaDescriptor } from 'react-router'

export const SITE_NAME = 'Hit Me Helpers'

/**
 * A page's meta tags: its title with the site's name after it, a description where a search engine should show one,
 * and noindex for a page that is one person's (a link from an e-mail, a step of their sign-in).
 */
export function pageMeta(title: string, { description, noindex }: { description?: string; noindex?: boolean } = {}): MetaDescriptor[] {
	return [
		{ title: `${title} · ${SITE_NAME}` },
		...(description ? [{ name: 'description', content: description }] : []),
		...(noindex ? [{ name: 'robots', content: 'noindex' }] : []),
	]
}
