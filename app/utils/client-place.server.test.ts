import { RouterContextProvider } from 'react-router'
import { describe, expect, test } from 'vitest'
import { placeFromHeaders, requestOrigin } from './client-place.server.ts'
import { clientAddressContext } from './request.server.ts'

describe('where a request came from', () => {
	test('the CDN headers give city, region and country, decoded and cut short', () => {
		const headers = new Headers({ 'cf-ipcity': 'S%C3%A3o%20Paulo', 'cf-region-code': 'SP', 'cf-ipcountry': 'BR' })
		expect(placeFromHeaders(headers)).toEqual({ city: 'São Paulo', region: 'SP', country: 'BR' })
		expect(placeFromHeaders(new Headers({ 'x-geo-city': 'y'.repeat(300) })).city).toHaveLength(80)
		expect(placeFromHeaders(new Headers({ 'x-geo-city': '%E0%A4%A' })).city).toBe('%E0%A4%A')
		expect(placeFromHeaders(new Headers())).toEqual({ city: null, region: null, country: null })
	})

	test('from a peer that is not a trusted proxy: its own address, and no place whatever the headers say', () => {
		const context = new RouterContextProvider()
		context.set(clientAddressContext, '203.0.113.50')
		const request = new Request('http://localhost/login', {
			headers: { 'x-forwarded-for': '198.51.100.1', 'cf-ipcity': 'Nowhere', 'cf-ipcountry': 'ZZ' },
		})
		expect(requestOrigin(request, context)).toEqual({ ipAddress: '203.0.113.50', city: null, region: null, country: null })
	})
})
