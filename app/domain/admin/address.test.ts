import { describe, expect, test } from 'vitest'
import { ADDRESS_FALLBACKS, shippingAddressLines, shippingAddressText } from './address.ts'

const SHOP = {
	name: 'Rosa Shopper',
	address1: '12 Elm Street',
	address2: 'Apt 4',
	city: 'Springfield',
	state: 'IL',
	postalCode: '62701',
	country: 'US',
}
const SHOP_LINES = ['Rosa Shopper', '12 Elm Street', 'Apt 4', 'Springfield, IL 62701', 'United States']
const STRIPE = {
	name: 'Ada Lovelace',
	line1: '1 Analytical Way',
	line2: '',
	city: 'London',
	state: '',
	postal_code: 'N1 9GU',
	country: 'GB',
}
const STRIPE_LINES = ['Ada Lovelace', '1 Analytical Way', 'London, N1 9GU', 'United Kingdom']

describe('shippingAddressLines: the shapes', () => {
	test.each([
		['the shop shape (address1, postalCode)', SHOP, SHOP_LINES],
		['the line1 / postal_code shape', STRIPE, STRIPE_LINES],
		['either shape as a JSON string', JSON.stringify(SHOP), SHOP_LINES],
		['a JSON string of a JSON string', JSON.stringify(JSON.stringify(STRIPE)), STRIPE_LINES],
		[
			'without the optional parts',
			{ name: 'Bo', address1: '1 Road', city: 'Austin', postalCode: '73301', country: 'US' },
			['Bo', '1 Road', 'Austin, 73301', 'United States'],
		],
		['a country that is not a code stays as written', { address1: '5 Rue', city: 'Lyon', country: 'France' }, ['5 Rue', 'Lyon', 'France']],
		['a numeric postal code', { line1: '9 Oak', city: 'Reno', state: 'NV', postal_code: 89501 }, ['9 Oak', 'Reno, NV 89501']],
		[
			'spaces are tidied, non-text fields ignored',
			{ name: '  Jo   Doe ', line1: '3 Pine', city: ['x'], country: 'us' },
			['Jo Doe', '3 Pine', 'United States'],
		],
		[
			'method and a text address',
			{ method: 'pickup', address: 'Foundation office\n10 Main St' },
			['Foundation office', '10 Main St', 'Method: pickup'],
		],
		['method and a nested shop address', { method: 'standard', address: SHOP }, [...SHOP_LINES, 'Method: standard']],
		[
			'method and a nested JSON address',
			JSON.stringify({ method: 'express', address: JSON.stringify(STRIPE) }),
			[...STRIPE_LINES, 'Method: express'],
		],
		['an address without a method', { address: '7 Bay Rd, Tampa' }, ['7 Bay Rd, Tampa']],
		['a shape that also names its method', { ...SHOP, method: 'overnight' }, [...SHOP_LINES, 'Method: overnight']],
		[
			'a free-request street address',
			{ streetAddress: '2 Hill St', city: 'Boise', state: 'ID', postalCode: '83702' },
			['2 Hill St', 'Boise, ID 83702'],
		],
		['an object without a prototype', Object.assign(Object.create(null) as object, { line1: '4 Elm', city: 'Troy' }), ['4 Elm', 'Troy']],
	])('%s', (_, value, lines) => {
		expect(shippingAddressLines(value)).toEqual({ lines })
	})
})

describe('shippingAddressLines: every fallback', () => {
	const throwing = {
		get line1(): string {
			throw new Error('boom')
		},
	}
	const hostile = new Proxy(
		{},
		{
			ownKeys() {
				throw new Error('no keys for you')
			},
		},
	)
	test.each([
		['null', null, ADDRESS_FALLBACKS.missing],
		['undefined', undefined, ADDRESS_FALLBACKS.missing],
		['an empty string', '', ADDRESS_FALLBACKS.empty],
		['a blank string', '   ', ADDRESS_FALLBACKS.empty],
		['an empty object', {}, ADDRESS_FALLBACKS.empty],
		['an empty object as JSON', '{}', ADDRESS_FALLBACKS.empty],
		['text that is not JSON', '12 Elm Street, Springfield', ADDRESS_FALLBACKS.invalidJson],
		['broken JSON', '{"line1": "12 Elm"', ADDRESS_FALLBACKS.invalidJson],
		['the JSON null', 'null', ADDRESS_FALLBACKS.blank],
		['a shape whose fields are all empty', { name: '', address1: ' ', city: '', postalCode: '', country: '' }, ADDRESS_FALLBACKS.blank],
		['a shape of empty fields as JSON', JSON.stringify({ line1: '', line2: '', city: '', postal_code: '' }), ADDRESS_FALLBACKS.blank],
		['an address key holding nothing, no method', { address: null }, ADDRESS_FALLBACKS.blank],
		['a method without an address', { method: 'pickup' }, ADDRESS_FALLBACKS.pending],
		['a method with an empty address', { method: 'standard', address: '' }, ADDRESS_FALLBACKS.pending],
		['a method with an empty address object', { method: 'standard', address: {} }, ADDRESS_FALLBACKS.pending],
		['a method with a null address, as JSON', '{"method":"pickup","address":null}', ADDRESS_FALLBACKS.pending],
		['an object of none of the shapes', { street_name: 'Elm', zipcode: '1' }, ADDRESS_FALLBACKS.unrecognized],
		['an array', ['12 Elm Street'], ADDRESS_FALLBACKS.unrecognized],
		['a number', 42, ADDRESS_FALLBACKS.unrecognized],
		['a boolean', true, ADDRESS_FALLBACKS.unrecognized],
		['a JSON number', '42', ADDRESS_FALLBACKS.unrecognized],
		['a JSON array', '["a"]', ADDRESS_FALLBACKS.unrecognized],
		['a nested address of no shape', { method: 'standard', address: { foo: 'bar' } }, ADDRESS_FALLBACKS.unrecognized],
		['a getter that throws', throwing, ADDRESS_FALLBACKS.error],
		['a proxy that throws', hostile, ADDRESS_FALLBACKS.error],
		['a Date', new Date(), ADDRESS_FALLBACKS.error],
		['a Map', new Map([['line1', 'x']]), ADDRESS_FALLBACKS.error],
		['a function', () => '12 Elm', ADDRESS_FALLBACKS.error],
		['a symbol', Symbol('address'), ADDRESS_FALLBACKS.error],
		['a bigint', 10n, ADDRESS_FALLBACKS.error],
	])('%s', (_, value, fallback) => {
		expect(shippingAddressLines(value)).toEqual({ fallback })
	})

	test('every fallback text is the spec’s', () => {
		expect(Object.values(ADDRESS_FALLBACKS).sort()).toEqual(
			[
				'Address available upon fulfillment',
				'Address not available',
				'No address data',
				'Address format not recognized',
				'Address format error',
				'Invalid address format',
				'No shipping address',
			].sort(),
		)
	})

	test('deeply nested JSON strings stop instead of recursing forever', () => {
		let value: string = JSON.stringify(SHOP)
		for (let i = 0; i < 10; i++) value = JSON.stringify(value)
		expect(shippingAddressLines(value)).toEqual({ fallback: ADDRESS_FALLBACKS.unrecognized })
	})

	test('shippingAddressText joins the lines or gives the fallback', () => {
		expect(shippingAddressText(SHOP)).toBe(SHOP_LINES.join(', '))
		expect(shippingAddressText(null)).toBe(ADDRESS_FALLBACKS.missing)
	})
})
