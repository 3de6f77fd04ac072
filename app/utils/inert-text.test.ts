import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { trackedHtml } from '#app/adapters/email-html.ts'
import { inertText } from './inert-text.ts'

const html = (text: string) =>
	trackedHtml({ text, trackingId: 't', publicUrl: 'https://hitmehelpers.example', trackClicks: true, secret: 's' })

/** What mail programs take for a link: a scheme, www., or a name.tld. */
const LINKISH = /[a-z][a-z0-9+.-]*:\/\/|www\.[\p{L}\p{N}]|[\p{L}\p{N}-]\.[\p{L}]{2,}/iu

describe('inertText', () => {
	test('addresses a stranger typed are quoted, not linked; ordinary words are left as they are', () => {
		expect(inertText('https://evil.example/login?x=1')).toBe('https[:]//evil[.]example/login?x=1')
		expect(inertText('Go to www.evil.example now')).toBe('Go to www[.]evil[.]example now')
		expect(inertText('mail me: a@evil.example.')).toBe('mail me: a@evil[.]example.')
		expect(inertText('evil．example and evil。example')).toBe('evil[.]example and evil[.]example')
		expect(inertText("St. Mary's, room 4.2 — Dr. Patel")).toBe("St. Mary's, room 4[.]2 — Dr. Patel")
		expect(inertText('Corner of 5th and Main')).toBe('Corner of 5th and Main')
	})

	test('nothing a stranger types comes out looking like a link, or as a link in the HTML part', () => {
		const piece = fc.constantFrom(
			'http',
			'https',
			':',
			'/',
			'//',
			'.',
			'．',
			'。',
			'www',
			'evil',
			'example',
			'com',
			'@',
			' ',
			'ä',
			'1',
			'-',
			'\\',
		)
		fc.assert(
			fc.property(fc.array(fc.oneof(piece, fc.string({ maxLength: 3 })), { maxLength: 20 }), (pieces) => {
				const text = inertText(pieces.join(''))
				expect(text).not.toMatch(LINKISH)
				expect(html(text)).not.toMatch(/<a /)
			}),
			{ numRuns: 2000 },
		)
	})
})
