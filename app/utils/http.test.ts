import { describe, expect, test } from 'vitest'
import { pageUrl, safeRedirect } from './http.ts'

describe('safeRedirect', () => {
	test.each([
		['/dashboard', '/dashboard'],
		['/claim/ABCD2345?x=1', '/claim/ABCD2345?x=1'],
		['//evil.example', '/'],
		['/\\evil.example', '/'],
		['https://evil.example/', '/'],
		['javascript:alert(1)', '/'],
		['', '/'],
		[null, '/'],
	])('%s → %s', (input, expected) => {
		expect(safeRedirect(input)).toBe(expected)
	})
})

describe('pageUrl', () => {
	test('strips the single-fetch suffix and internal params', () => {
		expect(pageUrl(new Request('http://x/dashboard.data?_routes=root')).pathname).toBe('/dashboard')
		expect(pageUrl(new Request('http://x/_root.data')).pathname).toBe('/')
		expect(pageUrl(new Request('http://x/_.data')).pathname).toBe('/')
		expect(pageUrl(new Request('http://x/auth?index')).search).toBe('')
	})
})
