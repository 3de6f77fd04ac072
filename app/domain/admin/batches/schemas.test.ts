import { describe, expect, test } from 'vitest'
import { QR_BATCH_FORMATS } from '#db/schema/admin.ts'
import { DEFAULT_LAYOUT_ID } from './layouts.ts'
import { BATCH_DEFAULT_COUNT, BATCH_FORMATS, BatchRequestSchema, INVALID_NUDGE, INVALID_QUANTITY, UNKNOWN_LAYOUT } from './schemas.ts'

const issues = (input: unknown) => {
	const result = BatchRequestSchema.safeParse(input)
	return result.success ? [] : result.error.issues.map((issue) => [issue.path.join('.'), issue.message])
}

describe('BatchRequestSchema', () => {
	test('the spec JSON body {count} gets the defaults; form data arrives as text', () => {
		expect(BatchRequestSchema.parse({ count: 25 })).toEqual({
			count: 25,
			format: 'png',
			layout: DEFAULT_LAYOUT_ID,
			nudgeXMm: 0,
			nudgeYMm: 0,
		})
		expect(BatchRequestSchema.parse({ count: '1000', format: 'pdf', layout: 'ol5375', nudgeXMm: '-3', nudgeYMm: '10' })).toEqual({
			count: 1000,
			format: 'pdf',
			layout: 'ol5375',
			nudgeXMm: -3,
			nudgeYMm: 10,
		})
		expect(BatchRequestSchema.parse({ count: ' 1 ', nudgeXMm: '' })).toMatchObject({ count: 1, nudgeXMm: 0 })
		expect(BATCH_DEFAULT_COUNT).toBe(10)
	})

	test.each([['abc'], [''], [0], ['0'], [-5], [1001], ['1001'], [2.5], ['12abc'], [null], [true], [{}]])(
		'count %j is refused with the spec message',
		(count) => {
			expect(issues({ count })).toEqual([['count', 'Please enter a quantity between 1 and 1000.']])
		},
	)

	test('a missing count is refused with the same message', () => {
		expect(issues({})).toEqual([['count', INVALID_QUANTITY]])
		expect(INVALID_QUANTITY).toBe('Please enter a quantity between 1 and 1000.')
	})

	test('format, layout and nudges are checked', () => {
		expect(issues({ count: 5, format: 'gif' })).toEqual([['format', 'Please choose a file format.']])
		expect(issues({ count: 5, layout: 'avery-0000' })).toEqual([['layout', UNKNOWN_LAYOUT]])
		expect(issues({ count: 5, nudgeXMm: 11 })).toEqual([['nudgeXMm', INVALID_NUDGE]])
		expect(issues({ count: 5, nudgeYMm: '-1.5' })).toEqual([['nudgeYMm', INVALID_NUDGE]])
		expect(issues({ count: 5, nudgeYMm: 'left' })).toEqual([['nudgeYMm', INVALID_NUDGE]])
	})

	test('the formats are the database’s', () => {
		expect([...BATCH_FORMATS].sort()).toEqual([...QR_BATCH_FORMATS].sort())
	})
})
