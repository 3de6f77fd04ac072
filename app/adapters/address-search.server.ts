import { z } from 'zod'
import type { AddressSuggestion } from '#app/utils/address-suggestion.ts'
import { env } from '#app/utils/env.server.ts'
import { log } from '#app/utils/log.server.ts'

export const ADDRESS_QUERY_MIN = 3
const TIMEOUT_MS = 3_000

const NominatimResult = z.array(
	z.object({
		display_name: z.string(),
		address: z.record(z.string(), z.unknown()).default({}),
	}),
)

/** Spec 000 §7: when the service fails, errs or finds nothing, the one suggestion built from the typed text. */
export function suggestionFromText(query: string): AddressSuggestion {
	const text = query.trim().replace(/\s+/g, ' ')
	const match = /^(\d+[a-z]?)\s+(.+)$/i.exec(text)
	return { display_name: text, address: match ? { house_number: match[1], road: match[2] } : { road: text } }
}

/** A Nominatim-compatible service (ADDRESS_SEARCH_URL) when configured; else the typed text. */
export async function searchAddresses(query: string, baseUrl = env.ADDRESS_SEARCH_URL): Promise<AddressSuggestion[]> {
	const text = query.trim()
	if (!baseUrl) return [suggestionFromText(text)]
	try {
		const url = new URL('search', baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`)
		url.search = new URLSearchParams({ q: text, format: 'jsonv2', addressdetails: '1', limit: '5' }).toString()
		const response = await fetch(url, {
			headers: { accept: 'application/json', 'user-agent': `HitMeHelpers/1.0 (${env.SUPPORT_EMAIL})` },
			signal: AbortSignal.timeout(TIMEOUT_MS),
		})
		if (!response.ok) throw new Error(`address search answered ${response.status}`)
		const results = NominatimResult.parse(await response.json())
		const suggestions = results.map((r) => ({
			display_name: r.display_name,
			address: Object.fromEntries(Object.entries(r.address).filter((e): e is [string, string] => typeof e[1] === 'string')),
		}))
		return suggestions.length ? suggestions : [suggestionFromText(text)]
	} catch (error) {
		log.warn({ err: error }, 'address search failed: offering the typed text')
		return [suggestionFromText(text)]
	}
}
