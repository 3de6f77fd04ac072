import type { RouterContextProvider } from 'react-router'
import { getClientIp, viaTrustedProxy } from './request.server.ts'

/** The coarse-location headers CDNs and proxies add (Vercel, CloudFront, Cloudflare, a generic proxy), as scans read them. */
const PLACE_HEADERS = {
	city: ['x-vercel-ip-city', 'cloudfront-viewer-city', 'cf-ipcity', 'x-geo-city'],
	region: ['x-vercel-ip-country-region', 'cloudfront-viewer-country-region', 'cf-region-code', 'x-geo-region'],
	country: ['x-vercel-ip-country', 'cloudfront-viewer-country', 'cf-ipcountry', 'x-geo-country'],
} as const

function decode(text: string) {
	try {
		return decodeURIComponent(text)
	} catch {
		return text
	}
}

/** City, region and country from those headers; only for headers a trusted proxy set. */
export function placeFromHeaders(headers: Headers) {
	const pick = (names: readonly string[]) => {
		const value = names.map((name) => headers.get(name)).find(Boolean)
		return value ? decode(value).slice(0, 80) : null
	}
	return { city: pick(PLACE_HEADERS.city), region: pick(PLACE_HEADERS.region), country: pick(PLACE_HEADERS.country) }
}

/** Where a request came from: the client's address, and a coarse place only when a trusted proxy named one. */
export function requestOrigin(request: Request, context?: Readonly<RouterContextProvider>) {
	const place = viaTrustedProxy(context) ? placeFromHeaders(request.headers) : { city: null, region: null, country: null }
	return { ipAddress: getClientIp(request, context), ...place }
}
