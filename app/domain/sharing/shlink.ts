// The SMART Health Link itself (HL7 SMART Health Links): `shlink:/` and the base64url of a small JSON payload.

export type ShlinkPayload = {
	/** The manifest's address. */
	url: string
	/** 32 random bytes, base64url: the key every file of the manifest is encrypted with. */
	key: string
	/** When the link stops working, in seconds since the epoch. */
	exp?: number
	/** 'P': a passcode guards the manifest. */
	flag?: string
	label?: string
	v: 1
}

export const SHLINK_PREFIX = 'shlink:/'

export function encodeShlink(payload: ShlinkPayload) {
	const { url, key, exp, flag, label } = payload
	const ordered = { url, key, ...(exp !== undefined && { exp }), ...(flag && { flag }), ...(label && { label }), v: 1 }
	return SHLINK_PREFIX + Buffer.from(JSON.stringify(ordered), 'utf8').toString('base64url')
}

/** A link as a viewer reads it: the text after `shlink:/` (a viewer's address may come before it, up to a '#'). */
export function decodeShlink(link: string): ShlinkPayload {
	const at = link.indexOf(SHLINK_PREFIX)
	if (at < 0) throw new Error('Not a SMART Health Link')
	return JSON.parse(Buffer.from(link.slice(at + SHLINK_PREFIX.length), 'base64url').toString('utf8')) as ShlinkPayload
}
