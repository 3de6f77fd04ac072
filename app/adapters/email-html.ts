import { createHmac } from 'node:crypto'
import { escapeMarkup } from '#app/utils/escape.ts'

/**
 * The HTML part of a plain-text e-mail, with open and click tracking. Pure: the caller passes the address of the site
 * and the signing secret. It sits beside the mail adapter (adapters may not import the domain); the domain's
 * email-tracking.server.ts verifies the signatures made here.
 */

/**
 * Types whose links carry a secret in their query: going through /e/c/ would put it in a second URL (the redirect's
 * `u=`, in access logs and proxies). Their links go straight to the target; the open pixel stays.
 * - donation-receipt: the year's statement link is signed (`sig=`) for the donor's address, and works without signing in.
 * - visitor-notice: the opt-out link carries a signed token that opts the person out without signing in.
 * - email-change: the link carries the single-use token that makes the new address the account's.
 * - review-reminder: the "Still correct" link carries the single-use token that confirms the profile.
 * - caregiver-invitation: the link carries the single-use token that shares a profile with its holder.
 */
export const UNTRACKED_CLICK_TYPES: ReadonlySet<string> = new Set([
	'donation-receipt',
	'visitor-notice',
	'email-change',
	'review-reminder',
	'caregiver-invitation',
])

/** 22 characters of base64url: 132 bits of the HMAC. */
const SIGNATURE_LENGTH = 22

/** The click redirect's signature of one target for one message: HMAC-SHA256, truncated base64url. */
export function clickSignature(secret: string, trackingId: string, target: string) {
	return createHmac('sha256', secret).update(`email-click:${trackingId}:${target}`).digest('base64url').slice(0, SIGNATURE_LENGTH)
}

const URL_CANDIDATE = /\bhttps?:\/\/[^\s<>"]+/gi
const TRAILING_PUNCTUATION = /[.,;:!?'*]$/

/** The URL without the sentence around it: trailing punctuation, and a closing bracket it does not open. */
function trimUrl(candidate: string) {
	let url = candidate
	for (;;) {
		if (TRAILING_PUNCTUATION.test(url)) url = url.slice(0, -1)
		else if (url.endsWith(')') && count(url, '(') < count(url, ')')) url = url.slice(0, -1)
		else if (url.endsWith(']') && count(url, '[') < count(url, ']')) url = url.slice(0, -1)
		else return url
	}
}
const count = (text: string, char: string) => text.split(char).length - 1

function parseHttpUrl(text: string) {
	try {
		const url = new URL(text)
		return url.protocol === 'http:' || url.protocol === 'https:' ? url : null
	} catch {
		return null
	}
}

type Options = {
	text: string
	trackingId: string
	/** The site's address (PUBLIC_URL): links to its origin go through the click redirect. */
	publicUrl: string
	/** False for messages whose links carry secrets: every link then goes straight to its target. */
	trackClicks: boolean
	/** The HMAC key of the click signatures. */
	secret: string
	/** The document's title, for screen readers and previews. */
	subject?: string
}

const LINK_STYLE = 'color:#b91c1c;text-decoration:underline'

/** Simple, accessible HTML for a plain-text message: escaped, paragraphs and line breaks kept, links, and an open pixel. */
export function trackedHtml({ text, trackingId, publicUrl, trackClicks, secret, subject }: Options) {
	const base = publicUrl.replace(/\/+$/, '')
	const origin = new URL(publicUrl).origin
	const id = encodeURIComponent(trackingId)

	function href(url: URL) {
		if (!trackClicks || url.origin !== origin) return url.href
		const query = new URLSearchParams({ u: url.href, s: clickSignature(secret, trackingId, url.href) })
		return `${base}/e/c/${id}?${query}`
	}

	function line(raw: string) {
		let html = ''
		let last = 0
		for (const match of raw.matchAll(URL_CANDIDATE)) {
			const shown = trimUrl(match[0])
			const url = parseHttpUrl(shown)
			if (!url) continue
			html +=
				escapeMarkup(raw.slice(last, match.index)) + `<a href="${escapeMarkup(href(url))}" style="${LINK_STYLE}">${escapeMarkup(shown)}</a>`
			last = match.index + shown.length
		}
		return html + escapeMarkup(raw.slice(last))
	}

	const paragraphs = text
		.replace(/\r\n?/g, '\n')
		.split(/\n[ \t]*\n/)
		.map((block) => block.replace(/^\n+|\n+$/g, ''))
		.filter((block) => block.trim())
		.map((block) => `<p style="margin:0 0 16px">${block.split('\n').map(line).join('<br>\n')}</p>`)
	const title = escapeMarkup(subject ?? '')
	return [
		'<!doctype html>',
		'<html lang="en">',
		'<head>',
		'<meta charset="utf-8">',
		'<meta name="viewport" content="width=device-width, initial-scale=1">',
		`<title>${title}</title>`,
		'</head>',
		'<body style="margin:0;padding:16px;background:#ffffff;color:#111827;font-family:Arial,Helvetica,sans-serif;font-size:16px;line-height:1.5">',
		`<div role="article" aria-roledescription="email"${title ? ` aria-label="${title}"` : ''} lang="en" style="max-width:600px;margin:0 auto">`,
		...paragraphs,
		'</div>',
		`<img src="${escapeMarkup(`${base}/e/o/${id}`)}" width="1" height="1" alt="" style="display:block;border:0">`,
		'</body>',
		'</html>',
	].join('\n')
}
