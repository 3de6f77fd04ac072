import { escapeMarkup } from './escape.ts'
import { SITE_NAME } from './meta.ts'

/** Nothing runs and nothing loads: the page is its own HTML and inline style. */
const MESSAGE_PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
const STYLE =
	'body{font:18px/1.5 system-ui,sans-serif;margin:0;padding:2rem 1rem;color:#111827;background:#f9fafb}main{max-width:36rem;margin:0 auto}h1{font-size:1.6rem;margin:0 0 .5rem}a{color:#1e40af;font-weight:600;overflow-wrap:anywhere}'

/**
 * A small page of its own for what a resource route (a file, a link from an e-mail) answers a browser when it has no
 * file to give: a title, what happened in words, and a way on. It needs no script and no stylesheet of the app's.
 */
export function messagePage({
	status,
	title,
	paragraphs,
	link,
	headers = {},
	head = '',
}: {
	status: number
	title: string
	paragraphs: string[]
	link?: { href: string; label: string }
	headers?: Record<string, string>
	/** Extra markup for the head, e.g. a refresh. */
	head?: string
}) {
	const body = [
		`<h1>${escapeMarkup(title)}</h1>`,
		...paragraphs.map((text) => `<p>${escapeMarkup(text)}</p>`),
		link ? `<p><a href="${escapeMarkup(link.href)}">${escapeMarkup(link.label)}</a></p>` : '',
	].join('')
	const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">${head}<title>${escapeMarkup(`${title} · ${SITE_NAME}`)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`
	return new Response(html, {
		status,
		headers: {
			'content-type': 'text/html; charset=utf-8',
			'content-security-policy': MESSAGE_PAGE_CSP,
			'cache-control': 'no-store, private',
			...headers,
		},
	})
}
