import { createCookie, type Cookie, type CookieOptions } from 'react-router'

// react-router's cookies carry base64 JSON; these carry their text as it is (hmh_seen=2026-11-01, hideCyberBanner=true),
// as browsers already hold them and as the page's own script writes one. The codec below translates between the two
// at the cookie library's encode/decode step, so parse and serialize keep react-router's behaviour otherwise.

const utf8 = new TextEncoder()
const utf8Text = new TextDecoder()

/** react-router's value (base64 of the JSON) → the text itself, URL-encoded as the cookie library would. */
function plainValue(data: string) {
	const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0))
	const value: unknown = JSON.parse(utf8Text.decode(bytes))
	return encodeURIComponent(typeof value === 'string' ? value : JSON.stringify(value))
}

/** The text a browser sent → react-router's value, which its parse reads back as that text. */
function dataValue(raw: string) {
	let text = raw
	try {
		text = decodeURIComponent(raw)
	} catch {
		// not URL-encoded: read as it is
	}
	let binary = ''
	for (const byte of utf8.encode(JSON.stringify(text))) binary += String.fromCharCode(byte)
	return btoa(binary)
}

/** A react-router cookie whose value is a plain text on the wire. Unsigned: what it holds must be safe to forge. */
export function plainCookie(name: string, options: Omit<CookieOptions, 'secrets' | 'encode' | 'decode'>): Cookie {
	return createCookie(name, { ...options, encode: plainValue, decode: dataValue })
}
