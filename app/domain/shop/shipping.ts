import type { AddressSuggestion } from '#app/utils/address-suggestion.ts'
import { SHIPPING_METHODS } from '#db/schema/values.ts'

/** Spec 000 §9: shipping by region, in dollars, with the estimate in business days. */
export { SHIPPING_METHODS }
export type ShippingMethod = (typeof SHIPPING_METHODS)[number]
export type ShippingOption = { method: ShippingMethod; label: string; cents: number; minDays: number; maxDays: number }

const option = (method: ShippingMethod, dollars: number, minDays: number, maxDays = minDays): ShippingOption => ({
	method,
	label: method === 'standard' ? 'Standard' : method === 'express' ? 'Express' : 'Overnight',
	cents: dollars * 100,
	minDays,
	maxDays,
})

const EU = ['DE', 'FR', 'IT', 'ES', 'NL'] as const
const INTL = ['JP', 'IN', 'BR', 'MX'] as const

const TABLES: Record<string, ShippingOption[]> = {
	US: [option('standard', 6, 5, 7), option('express', 13, 2, 3), option('overnight', 25, 1)],
	CA: [option('standard', 9, 7, 10), option('express', 19, 3, 5)],
	GB: [option('standard', 13, 10, 14), option('express', 23, 5, 7)],
	AU: [option('standard', 15, 12, 16), option('express', 27, 6, 8)],
	...Object.fromEntries(EU.map((c) => [c, [option('standard', 12, 10, 14), option('express', 22, 5, 7)]])),
	...Object.fromEntries(INTL.map((c) => [c, [option('standard', 16, 14, 21), option('express', 30, 7, 10)]])),
}

/** The countries with shipping, as two-letter codes (spec 000 §5), with their English names. */
export const COUNTRIES = [
	{ code: 'US', name: 'United States' },
	{ code: 'CA', name: 'Canada' },
	{ code: 'GB', name: 'United Kingdom' },
	{ code: 'AU', name: 'Australia' },
	{ code: 'DE', name: 'Germany' },
	{ code: 'FR', name: 'France' },
	{ code: 'IT', name: 'Italy' },
	{ code: 'ES', name: 'Spain' },
	{ code: 'NL', name: 'Netherlands' },
	{ code: 'JP', name: 'Japan' },
	{ code: 'IN', name: 'India' },
	{ code: 'BR', name: 'Brazil' },
	{ code: 'MX', name: 'Mexico' },
] as const

export const DEFAULT_COUNTRY = 'US'
export const DEFAULT_METHOD: ShippingMethod = 'standard'
export const NO_SHIPPING = 'No shipping options available for selected country'

export function shippingOptions(country: string): ShippingOption[] {
	return TABLES[country.toUpperCase()] ?? []
}

export function shippingOption(country: string, method: string) {
	return shippingOptions(country).find((o) => o.method === method) ?? null
}

export function estimateLabel(o: ShippingOption) {
	return o.minDays === o.maxDays ? `${o.minDays} business day` : `${o.minDays}-${o.maxDays} business days`
}

const COUNTRY_ALIASES: Record<string, string> = {
	'united states': 'US',
	'united states of america': 'US',
	usa: 'US',
	us: 'US',
	canada: 'CA',
	'united kingdom': 'GB',
	uk: 'GB',
	'great britain': 'GB',
	england: 'GB',
	scotland: 'GB',
	wales: 'GB',
	australia: 'AU',
	germany: 'DE',
	deutschland: 'DE',
	france: 'FR',
	italy: 'IT',
	italia: 'IT',
	spain: 'ES',
	españa: 'ES',
	netherlands: 'NL',
	'the netherlands': 'NL',
	nederland: 'NL',
	japan: 'JP',
	日本: 'JP',
	india: 'IN',
	brazil: 'BR',
	brasil: 'BR',
	mexico: 'MX',
	méxico: 'MX',
}

/** Spec 000 §5: a suggestion's country name as a code; null for one we do not ship to (the current choice stays). */
export function countryCode(name: string | null | undefined) {
	return name ? (COUNTRY_ALIASES[name.trim().toLowerCase()] ?? null) : null
}

/** Adds business days (Monday to Friday) to a date. */
export function addBusinessDays(from: Date, days: number) {
	const date = new Date(from)
	let left = days
	while (left > 0) {
		date.setUTCDate(date.getUTCDate() + 1)
		const day = date.getUTCDay()
		if (day !== 0 && day !== 6) left--
	}
	return date
}

/** Orders are prepared within 1-2 business days, then travel by the chosen method (spec 002 §9). */
export const PROCESSING_DAYS = 2

export type { AddressSuggestion }

/** Spec 000 §3: the parts of a suggestion's address, whichever names the service used. */
export function addressFromSuggestion(suggestion: AddressSuggestion) {
	const a = suggestion.address
	const pick = (...keys: string[]) =>
		keys
			.map((k) => a[k])
			.find((v) => v && v.trim())
			?.trim()
	const number = pick('house_number', 'building_number')
	const street = pick('road', 'street')
	return {
		address1: [number, street].filter(Boolean).join(' ') || suggestion.display_name.split(',')[0]!.trim(),
		city: pick('city', 'town', 'village', 'municipality'),
		state: pick('state', 'province', 'region', 'county'),
		postalCode: pick('postcode', 'postal_code', 'zip'),
		country: pick('country'),
	}
}
