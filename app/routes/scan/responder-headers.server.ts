import { LOCATE_SCRIPT_HASH } from '#app/domain/responder/page.ts'

/**
 * The responder pages' headers. Their only form ("I'm helping") posts to this site; their only script, when the form
 * is there, is the location button, allowed by its hash.
 */
export function responderPageHeaders(lang: string, helpingForm: boolean) {
	const script = helpingForm ? `script-src ${LOCATE_SCRIPT_HASH}; ` : ''
	return {
		'content-type': 'text/html; charset=utf-8',
		'cache-control': 'no-store',
		'x-robots-tag': 'noindex, nofollow',
		'content-security-policy': `default-src 'none'; ${script}style-src 'unsafe-inline'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`,
		'content-language': lang,
		vary: 'Accept-Language',
	}
}
