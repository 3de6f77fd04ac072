import { expect, test } from 'vitest'
import { COUNTRY_CODES, countryNames, DEFAULT_COUNTRY } from './countries.ts'

test('one English name per code offered, sorted as a person reads them, the default among them', () => {
	const names = countryNames()
	expect(names).toHaveLength(244)
	expect(new Set(names).size).toBe(COUNTRY_CODES.length)
	expect([...names].sort(new Intl.Collator('en').compare)).toEqual(names)
	expect(names).toContain(DEFAULT_COUNTRY)
	expect(names.slice(0, 3)).toEqual(['Afghanistan', 'Åland Islands', 'Albania'])
	expect(names.slice(-3)).toEqual(['Yemen', 'Zambia', 'Zimbabwe'])
})

test('every code is a region the platform names', () => {
	const strict = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' })
	expect(COUNTRY_CODES.filter((code) => !/^[A-Z]{2}$/.test(code) || !strict.of(code))).toEqual([])
})

test('the names the requests already stored keep their spelling', () => {
	expect(countryNames()).toEqual(
		expect.arrayContaining([
			'United States',
			'United Kingdom',
			'Türkiye',
			'Côte d’Ivoire',
			'Congo - Kinshasa',
			'Myanmar (Burma)',
			'U.S. Virgin Islands',
			'St. Kitts & Nevis',
			'Kosovo',
		]),
	)
})
