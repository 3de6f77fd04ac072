import { describe, expect, test } from 'vitest'
import { addressFromSuggestion } from './schemas.ts'
import { addBusinessDays, countryCode, estimateLabel, shippingOptions } from './shipping.ts'

describe('shipping tables (spec 000 §9)', () => {
	test.each([
		[
			'US',
			[
				['standard', 600, '5-7 business days'],
				['express', 1300, '2-3 business days'],
				['overnight', 2500, '1 business day'],
			],
		],
		[
			'CA',
			[
				['standard', 900, '7-10 business days'],
				['express', 1900, '3-5 business days'],
			],
		],
		[
			'GB',
			[
				['standard', 1300, '10-14 business days'],
				['express', 2300, '5-7 business days'],
			],
		],
		[
			'AU',
			[
				['standard', 1500, '12-16 business days'],
				['express', 2700, '6-8 business days'],
			],
		],
		[
			'FR',
			[
				['standard', 1200, '10-14 business days'],
				['express', 2200, '5-7 business days'],
			],
		],
		[
			'MX',
			[
				['standard', 1600, '14-21 business days'],
				['express', 3000, '7-10 business days'],
			],
		],
	])('%s', (country, expected) => {
		expect(shippingOptions(country).map((o) => [o.method, o.cents, estimateLabel(o)])).toEqual(expected)
	})
	test('a country without a table has no options', () => {
		expect(shippingOptions('ZA')).toEqual([])
	})
	test('business days skip weekends', () => {
		expect(addBusinessDays(new Date('2026-11-20T12:00:00Z'), 1).toISOString().slice(0, 10)).toBe('2026-11-23')
		expect(addBusinessDays(new Date('2026-11-23T12:00:00Z'), 5).toISOString().slice(0, 10)).toBe('2026-11-30')
	})
})

describe('address suggestions (spec 000 §3, §5)', () => {
	test('country names map to the thirteen codes; others leave the choice as it is', () => {
		for (const [name, code] of [
			['United States', 'US'],
			['Canada', 'CA'],
			['United Kingdom', 'GB'],
			['Australia', 'AU'],
			['Deutschland', 'DE'],
			['France', 'FR'],
			['Italia', 'IT'],
			['España', 'ES'],
			['Nederland', 'NL'],
			['Japan', 'JP'],
			['India', 'IN'],
			['Brasil', 'BR'],
			['México', 'MX'],
		])
			expect(countryCode(name), name).toBe(code)
		expect(countryCode('South Africa')).toBeNull()
	})
	test('the parts of an address, whichever names the service used', () => {
		expect(
			addressFromSuggestion({
				display_name: 'x',
				address: {
					house_number: '12',
					road: 'Elm Street',
					town: 'Springfield',
					province: 'IL',
					postal_code: '62701',
					country: 'United States',
				},
			}),
		).toEqual({
			address1: '12 Elm Street',
			city: 'Springfield',
			state: 'IL',
			postalCode: '62701',
			country: 'United States',
		})
		expect(
			addressFromSuggestion({
				display_name: 'Baker Street 221B, London',
				address: { building_number: '221B', street: 'Baker Street', village: 'London', county: 'Greater London', zip: 'NW1' },
			}),
		).toMatchObject({
			address1: '221B Baker Street',
			city: 'London',
			state: 'Greater London',
			postalCode: 'NW1',
		})
		expect(addressFromSuggestion({ display_name: 'Somewhere, Nowhere', address: {} }).address1).toBe('Somewhere')
	})
})
