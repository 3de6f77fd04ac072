import { data } from 'react-router'

type DataResult = ReturnType<typeof data<unknown>>
const DataResultClass = data(null).constructor

/** What `data(value, init)` made: React Router exports the function but not the class, so it is taken from one. */
export function isDataResult(value: unknown): value is DataResult {
	return value instanceof DataResultClass
}

export function combineHeaders(...all: Array<ResponseInit['headers'] | null | undefined>) {
	const combined = new Headers()
	for (const headers of all) {
		if (!headers) continue
		for (const [key, value] of new Headers(headers).entries()) combined.append(key, value)
	}
	return combined
}

/** Only same-site paths: '/x' but never '//host' or '/\host'. */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = '/') {
	if (!to || typeof to !== 'string') return fallback
	const value = to.trim()
	if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return fallback
	try {
		const url = new URL(value, 'http://local.invalid')
		if (url.origin !== 'http://local.invalid') return fallback
		return url.pathname + url.search + url.hash
	} catch {
		return fallback
	}
}

/** The page URL a request is for: single-fetch data requests carry a `.data` suffix and internal params. */
export function pageUrl(request: Request) {
	const url = new URL(request.url)
	if (url.pathname.endsWith('.data')) {
		// The index route's data URL is /_root.data, or /_.data with trailing-slash-aware data requests.
		url.pathname = url.pathname === '/_root.data' || url.pathname === '/_.data' ? '/' : url.pathname.slice(0, -'.data'.length)
	}
	url.searchParams.delete('_routes')
	url.searchParams.delete('index')
	return url
}

/** What a page answers a method it does not serve (405). */
export const WRONG_METHOD_MESSAGE = 'This page cannot be used that way.'
