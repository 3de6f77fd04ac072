import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { escapeMarkup } from './escape.ts'

describe('escapeMarkup', () => {
	test('escapes the five characters markup gives a meaning to', () => {
		expect(escapeMarkup(`<b class="x">Tom & Jerry's</b>`)).toBe('&lt;b class=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/b&gt;')
	})

	test('leaves every other character as it is, and escapes an ampersand only once', () => {
		expect(escapeMarkup('Naïve résumé — 100% ✓')).toBe('Naïve résumé — 100% ✓')
		expect(escapeMarkup('&amp;')).toBe('&amp;amp;')
		expect(escapeMarkup('')).toBe('')
	})

	test('any text reads back the same once its entities are decoded, and keeps no character that would end a tag or an attribute', () => {
		fc.assert(
			fc.property(fc.string({ unit: fc.constantFrom('&', '<', '>', '"', "'", 'a', ' ', ';', '#') }), (text) => {
				const escaped = escapeMarkup(text)
				expect(escaped).not.toMatch(/[<>"']/)
				const decoded = escaped.replace(
					/&(amp|lt|gt|quot|#39);/g,
					(_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[name]!,
				)
				expect(decoded).toBe(text)
			}),
		)
	})
})
