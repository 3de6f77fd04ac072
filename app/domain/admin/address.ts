import { COUNTRIES } from '#app/domain/shop/shipping.ts'

/**
 * Spec 002 §8 "Address fallbacks": what the order list shows when a stored address gives no lines.
 *
 * | Fallback                            | When                                                                          |
 * |-------------------------------------|-------------------------------------------------------------------------------|
 * | 'Address not available'             | null or undefined: the order has no address at all                            |
 * | 'No address data'                   | an empty (or blank) string, or an object with no keys                         |
 * | 'Invalid address format'            | a string that is not valid JSON                                               |
 * | 'No shipping address'               | the JSON string 'null', or a known shape whose fields are all empty           |
 * | 'Address available upon fulfillment'| a { method, address } value without an address yet (e.g. { method: 'pickup' })|
 * | 'Address format not recognized'     | an array, number, boolean, or an object with none of the known fields         |
 * | 'Address format error'              | reading it throws (a getter, a proxy), or it is not plain data (Date, Map, …) |
 */
export const ADDRESS_FALLBACKS = {
	missing: 'Address not available',
	empty: 'No address data',
	invalidJson: 'Invalid address format',
	blank: 'No shipping address',
	pending: 'Address available upon fulfillment',
	unrecognized: 'Address format not recognized',
	error: 'Address format error',
} as const

export type AddressDisplay = { lines: string[] } | { fallback: string }

/** Fields of the known shapes; an object with none of them is not an address. */
const STREET = ['line1', 'address1', 'streetAddress', 'street'] as const
const STREET2 = ['line2', 'address2'] as const
const POSTAL = ['postal_code', 'postalCode', 'zip'] as const
const KNOWN = new Set<string>(['name', 'city', 'state', 'country', ...STREET, ...STREET2, ...POSTAL])

/** A JSON string holding another JSON string is unwrapped this many times at most; a nested address too. */
const MAX_DEPTH = 3

/**
 * Display lines for any stored or legacy shipping address: `{ line1, line2, city, state, postal_code, country, name }`,
 * `{ name, address1, address2, city, state, postalCode, country }`, or `{ method, address }` with the address as text or
 * as one of the other shapes; each may also come as a JSON string. Never throws.
 */
export function shippingAddressLines(value: unknown): AddressDisplay {
	try {
		return read(value, 0)
	} catch {
		return { fallback: ADDRESS_FALLBACKS.error }
	}
}

/** The lines joined for one cell or one line of text, or the fallback. */
export function shippingAddressText(value: unknown, separator = ', ') {
	const display = shippingAddressLines(value)
	return 'lines' in display ? display.lines.join(separator) : display.fallback
}

function read(value: unknown, depth: number): AddressDisplay {
	if (value === null || value === undefined) return { fallback: ADDRESS_FALLBACKS.missing }
	if (typeof value === 'string') return readString(value, depth)
	if (typeof value !== 'object') {
		return typeof value === 'number' || typeof value === 'boolean'
			? { fallback: ADDRESS_FALLBACKS.unrecognized }
			: { fallback: ADDRESS_FALLBACKS.error }
	}
	if (Array.isArray(value)) return { fallback: ADDRESS_FALLBACKS.unrecognized }
	const proto = Object.getPrototypeOf(value) as unknown
	if (proto !== Object.prototype && proto !== null) return { fallback: ADDRESS_FALLBACKS.error }
	const record = value as Record<string, unknown>
	const keys = Object.keys(record)
	if (!keys.length) return { fallback: ADDRESS_FALLBACKS.empty }
	if ('address' in record) return readMethod(record, depth)
	const known = keys.some((key) => KNOWN.has(key))
	if (!known && 'method' in record) return { fallback: text(record.method) ? ADDRESS_FALLBACKS.pending : ADDRESS_FALLBACKS.blank }
	if (!known) return { fallback: ADDRESS_FALLBACKS.unrecognized }
	const lines = shapeLines(record)
	return lines.length ? { lines: [...lines, ...methodLine(record)] } : { fallback: ADDRESS_FALLBACKS.blank }
}

function readString(value: string, depth: number): AddressDisplay {
	if (!value.trim()) return { fallback: ADDRESS_FALLBACKS.empty }
	if (depth >= MAX_DEPTH) return { fallback: ADDRESS_FALLBACKS.unrecognized }
	let parsed: unknown
	try {
		parsed = JSON.parse(value)
	} catch {
		return { fallback: ADDRESS_FALLBACKS.invalidJson }
	}
	if (parsed === null) return { fallback: ADDRESS_FALLBACKS.blank }
	return read(parsed, depth + 1)
}

/** `{ method, address }`: the address as free text or as another shape, then the method when there is one. */
function readMethod(record: Record<string, unknown>, depth: number): AddressDisplay {
	const method = text(record.method)
	const address = record.address
	const noAddress =
		address === null ||
		address === undefined ||
		(typeof address === 'string' && !address.trim()) ||
		(isPlainObject(address) && !Object.keys(address).length)
	if (noAddress) return method ? { fallback: ADDRESS_FALLBACKS.pending } : { fallback: ADDRESS_FALLBACKS.blank }
	if (typeof address === 'string' && !/^\s*[{"]/.test(address)) {
		const lines = address
			.split(/\r?\n/)
			.map((line) => line.trim())
			.filter(Boolean)
		return { lines: [...lines, ...methodLine(record)] }
	}
	if (depth >= MAX_DEPTH) return { fallback: ADDRESS_FALLBACKS.unrecognized }
	const inner = read(address, depth + 1)
	return 'lines' in inner ? { lines: [...inner.lines, ...methodLine(record)] } : inner
}

/** A pickup or a shipping method is worth a line under the address. */
function methodLine(record: Record<string, unknown>) {
	const method = text(record.method)
	return method ? [`Method: ${method}`] : []
}

function shapeLines(record: Record<string, unknown>) {
	const first = (keys: readonly string[]) => keys.map((key) => text(record[key])).find(Boolean) ?? ''
	const city = text(record.city)
	const state = text(record.state)
	const postal = first(POSTAL)
	const region = [state, postal].filter(Boolean).join(' ')
	const locality = city && region ? `${city}, ${region}` : city || region
	return [text(record.name), first(STREET), first(STREET2), locality, countryName(text(record.country))].filter(Boolean)
}

function countryName(value: string) {
	return COUNTRIES.find((c) => c.code === value.toUpperCase())?.name ?? value
}

/** Strings and numbers (a postal code stored as a number) count; anything else is treated as empty. */
function text(value: unknown) {
	if (typeof value === 'string') return value.replace(/\s+/g, ' ').trim()
	if (typeof value === 'number' && Number.isFinite(value)) return String(value)
	return ''
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
	const proto = Object.getPrototypeOf(value) as unknown
	return proto === Object.prototype || proto === null
}
