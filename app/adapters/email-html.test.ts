import { describe, expect, test } from 'vitest'
import { clickSignature, trackedHtml, UNTRACKED_CLICK_TYPES } from './email-html.ts'

const SECRET = 'test-secret'
const TRACKING_ID = 'AbCdEfGhIjKlMnOpQrStUv'
const SITE = 'https://hmh.example'

const html = (text: string, trackClicks = true, publicUrl = SITE) =>
	trackedHtml({ text, trackingId: TRACKING_ID, publicUrl, trackClicks, secret: SECRET, subject: 'Your order' })

const links = (markup: string) => [...markup.matchAll(/<a href="([^"]*)"[^>]*>([^<]*)<\/a>/g)].map((m) => ({ href: m[1]!, text: m[2]! }))
const unescape = (value: string) => value.replaceAll('&amp;', '&')

describe('trackedHtml', () => {
	test('escapes everything and keeps paragraphs and line breaks', () => {
		const markup = html('Hello <b>Ada</b> & "friends",\nsee you.\n\n\n  \nThanks\r\nHit Me Helpers')
		expect(markup).toContain('<p style="margin:0 0 16px">Hello &lt;b&gt;Ada&lt;/b&gt; &amp; &quot;friends&quot;,<br>\nsee you.</p>')
		expect(markup).toContain('<p style="margin:0 0 16px">Thanks<br>\nHit Me Helpers</p>')
		expect(markup.match(/<p /g)).toHaveLength(2)
		expect(markup).not.toContain('<b>')
	})

	test('is a complete, labelled document in English', () => {
		const markup = html('Hi')
		expect(markup).toMatch(/^<!doctype html>\n<html lang="en">/)
		expect(markup).toContain('<title>Your order</title>')
		expect(markup).toContain('role="article"')
		expect(markup).toContain('aria-label="Your order"')
	})

	test('ends with a 1×1 open pixel', () => {
		const markup = html('Hi')
		expect(markup).toContain(
			`<img src="${SITE}/e/o/${TRACKING_ID}" width="1" height="1" alt="" style="display:block;border:0">\n</body>\n</html>`,
		)
	})

	test('links to the site go through the signed click redirect; others go straight to their target', () => {
		const markup = html(`Track it: ${SITE}/order-tracking?x=1&y=2.\nOr read https://other.example/page (elsewhere).`)
		const [own, other] = links(markup)
		expect(own!.text).toBe(`${SITE}/order-tracking?x=1&amp;y=2`)
		const click = new URL(unescape(own!.href))
		expect(click.origin + click.pathname).toBe(`${SITE}/e/c/${TRACKING_ID}`)
		const target = `${SITE}/order-tracking?x=1&y=2`
		expect(click.searchParams.get('u')).toBe(target)
		expect(click.searchParams.get('s')).toBe(clickSignature(SECRET, TRACKING_ID, target))
		expect(other).toEqual({ href: 'https://other.example/page', text: 'https://other.example/page' })
		// The sentence's punctuation stays outside the links.
		expect(markup).toContain('</a>.<br>')
		expect(markup).toContain('</a> (elsewhere).')
	})

	test('a trailing slash on the site address and a bracket around a link change nothing', () => {
		const markup = html(`Visit ${SITE}/claim/YOUR-PIN), or sign in (at ${SITE}/dashboard).`, true, `${SITE}/`)
		const found = links(markup).map((l) => ({ text: l.text, u: new URL(unescape(l.href)).searchParams.get('u') }))
		expect(found).toEqual([
			{ text: `${SITE}/claim/YOUR-PIN`, u: `${SITE}/claim/YOUR-PIN` },
			{ text: `${SITE}/dashboard`, u: `${SITE}/dashboard` },
		])
		expect(markup).toContain(`src="${SITE}/e/o/${TRACKING_ID}"`)
	})

	test('without click tracking, links to the site go straight to their target, and the pixel stays', () => {
		const markup = html(`Opt out: ${SITE}/notices/opt-out?token=abc.def`, false)
		expect(links(markup)).toEqual([{ href: `${SITE}/notices/opt-out?token=abc.def`, text: `${SITE}/notices/opt-out?token=abc.def` }])
		expect(markup).not.toContain('/e/c/')
		expect(markup).toContain(`/e/o/${TRACKING_ID}`)
	})

	test('a link-looking text that is no URL stays text; an attribute cannot be broken out of', () => {
		const markup = html('See http://[broken and https://x.example/"onmouseover="alert(1)')
		expect(links(markup)).toEqual([{ href: 'https://x.example/', text: 'https://x.example/' }])
		expect(markup).toContain('See http://[broken and ')
		expect(markup).toContain('&quot;onmouseover=&quot;alert(1)')
	})
})

describe('clickSignature', () => {
	test('is short base64url, and differs by message, target and secret', () => {
		const signature = clickSignature(SECRET, TRACKING_ID, `${SITE}/a`)
		expect(signature).toMatch(/^[A-Za-z0-9_-]{22}$/)
		expect(clickSignature(SECRET, 'another-tracking-id', `${SITE}/a`)).not.toBe(signature)
		expect(clickSignature(SECRET, TRACKING_ID, `${SITE}/b`)).not.toBe(signature)
		expect(clickSignature('other-secret', TRACKING_ID, `${SITE}/a`)).not.toBe(signature)
	})
})

test('the messages whose links carry secrets are not click-tracked', () => {
	expect([...UNTRACKED_CLICK_TYPES].sort()).toEqual([
		'caregiver-invitation',
		'donation-receipt',
		'email-change',
		'review-reminder',
		'visitor-notice',
	])
})
