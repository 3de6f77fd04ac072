import { expect, test } from 'vitest'
import { formatDate } from './dates.ts'

test('calendar dates are that day everywhere; moments are the foundation’s day; anything else stays as given', () => {
	expect(formatDate('1948-03-14')).toBe('March 14, 1948')
	expect(formatDate(new Date('2026-11-24T03:30:00Z'))).toBe('November 23, 2026')
	expect(formatDate(new Date('2026-11-24T15:00:00Z'))).toBe('November 24, 2026')
	expect(formatDate('spring 1990')).toBe('spring 1990')
	expect(formatDate('2026-13-45')).toBe('2026-13-45')
	expect(formatDate(new Date('nonsense'))).toBe('')
})
