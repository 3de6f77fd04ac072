import { describe, expect, test } from 'vitest'
import { allocate, fitText, wrapText, type Measure } from './layout.ts'

/** Every character one unit wide at size 1. */
const mono: Measure = (text, size) => [...text].length * size

describe('wrapText', () => {
	test('breaks at spaces, and inside a word only when the word alone is too wide', () => {
		expect(wrapText('one two three four', 9, 1, mono)).toEqual(['one two', 'three', 'four'])
		expect(wrapText('abcdefghijkl', 5, 1, mono)).toEqual(['abcde', 'fghij', 'kl'])
	})

	test('past maxLines the last line ends with an ellipsis and still fits', () => {
		const lines = wrapText('one two three four five', 9, 1, mono, { maxLines: 2 })
		expect(lines).toEqual(['one two', 'three…'])
		for (const line of lines) expect(mono(line, 1)).toBeLessThanOrEqual(9)
	})

	test('a no-break space keeps its neighbours together; other spacing is one space', () => {
		expect(wrapText('Allergie grave\u00a0: Latex', 14, 1, mono)).toEqual(['Allergie', 'grave\u00a0: Latex'])
		expect(wrapText('a\n\tb   c', 10, 1, mono)).toEqual(['a b c'])
	})
})

describe('fitText', () => {
	test('takes the largest size at which the text fits in its lines, else the smallest with an ellipsis', () => {
		expect(fitText('abcd', 8, mono, { largest: 4, smallest: 1, maxLines: 1 })).toEqual({ size: 2, lines: ['abcd'] })
		const tight = fitText('abcd efgh ijkl', 4, mono, { largest: 4, smallest: 1, maxLines: 1 })
		expect(tight.size).toBe(1)
		expect(tight.lines).toHaveLength(1)
		expect(tight.lines[0]).toMatch(/…$/)
	})
})

describe('allocate', () => {
	const block = (items: number, extra: Partial<Parameters<typeof allocate>[0][number]> = {}) => ({
		heading: 1,
		items: Array<number>(items).fill(1),
		more: 1,
		none: 1,
		...extra,
	})

	test('everything when it fits', () => {
		expect(allocate([block(3), block(2)], 7)).toEqual([3, 2])
	})

	test('a long list does not crowd out the next one, and the "+N more" line is counted', () => {
		// 30 items and 3 items in 12 lines: each list keeps its heading and its "more" line.
		const shown = allocate([block(30), block(3)], 12)
		expect(shown[1]).toBeGreaterThanOrEqual(1)
		const height = (n: number, total: number) => 1 + n + (n < total ? 1 : 0)
		expect(height(shown[0]!, 30) + height(shown[1]!, 3)).toBeLessThanOrEqual(12)
		expect(shown).toEqual([6, 3])
	})

	test('max caps a list; min is given before the others grow', () => {
		expect(allocate([block(5, { max: 2 }), block(10)], 20)).toEqual([2, 10])
		expect(allocate([block(10), block(4, { min: 2 })], 6)).toEqual([0, 2])
	})

	test('an empty list takes its heading and the "none" line', () => {
		expect(allocate([block(0), block(4)], 5)).toEqual([0, 1])
	})

	test('too little room for the minimums: the later lists give theirs up first', () => {
		expect(allocate([block(3, { min: 2 }), block(3, { min: 2 })], 5)).toEqual([1, 0])
	})
})
